// zlib, for the CRC-32 of zip entries (see ZipReader).
#include <zlib.h>
