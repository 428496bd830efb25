// libxlsxwriter's packager opens every zip entry with minizip's zipOpenNewFileInZip4_64 at
// Z_DEFAULT_COMPRESSION (level 6), with no option to choose: on a 10,000-archive export that
// deflate is two thirds of the workbook's time, on one core. This definition, in the
// executable, comes before libminizip's in symbol lookup (the library calls minizip through
// its PLT), changes the level when the calling thread asked for one, and calls minizip's own
// function with every other argument untouched. Entries stay standard deflate: any reader
// opens them, and minizip records the level in the entry's flag bits (APPNOTE 4.4.4).
#define _GNU_SOURCE
#include <dlfcn.h>

#include "CZipLevel.h"

enum { DEFLATED = 8, DEFAULT_COMPRESSION = -1, ZIP_INTERNAL_ERROR = -104 };

static _Thread_local int chosenLevel = RK_ZIP_LEVEL_LIBRARY_DEFAULT;
static _Thread_local int entriesOpened = 0;
static _Thread_local int entriesLeveled = 0;

void rk_zip_set_deflate_level(int level) {
  chosenLevel = level >= 1 && level <= 9 ? level : RK_ZIP_LEVEL_LIBRARY_DEFAULT;
  entriesOpened = 0;
  entriesLeveled = 0;
}

int rk_zip_entries_opened(void) { return entriesOpened; }

int rk_zip_entries_leveled(void) { return entriesLeveled; }

// minizip's prototype (zip.h), with its typedefs spelled out: zipFile is a pointer, uInt is
// unsigned int, uLong is unsigned long.
typedef int (*OpenNewFile)(void *file, const char *filename, const void *fileInfo,
                           const void *extraLocal, unsigned int extraLocalSize,
                           const void *extraGlobal, unsigned int extraGlobalSize,
                           const char *comment, int method, int level, int raw, int windowBits,
                           int memLevel, int strategy, const char *password,
                           unsigned long crcForCrypting, unsigned long versionMadeBy,
                           unsigned long flagBase, int zip64);

int zipOpenNewFileInZip4_64(void *file, const char *filename, const void *fileInfo,
                            const void *extraLocal, unsigned int extraLocalSize,
                            const void *extraGlobal, unsigned int extraGlobalSize,
                            const char *comment, int method, int level, int raw,
                            int windowBits, int memLevel, int strategy, const char *password,
                            unsigned long crcForCrypting, unsigned long versionMadeBy,
                            unsigned long flagBase, int zip64) {
  static OpenNewFile minizip;
  OpenNewFile next = __atomic_load_n(&minizip, __ATOMIC_ACQUIRE);
  if (!next) {
    next = (OpenNewFile)dlsym(RTLD_NEXT, "zipOpenNewFileInZip4_64");
    if (!next) return ZIP_INTERNAL_ERROR;
    __atomic_store_n(&minizip, next, __ATOMIC_RELEASE);
  }
  entriesOpened += 1;
  if (chosenLevel != RK_ZIP_LEVEL_LIBRARY_DEFAULT && method == DEFLATED &&
      level == DEFAULT_COMPRESSION && !raw) {
    level = chosenLevel;
    entriesLeveled += 1;
  }
  return next(file, filename, fileInfo, extraLocal, extraLocalSize, extraGlobal,
              extraGlobalSize, comment, method, level, raw, windowBits, memLevel, strategy,
              password, crcForCrypting, versionMadeBy, flagBase, zip64);
}
