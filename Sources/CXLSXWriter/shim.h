// The one header rkexport needs from libxlsxwriter (Debian libxlsxwriter-dev).
#include <xlsxwriter.h>
