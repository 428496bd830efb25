// How the zip entries libxlsxwriter writes when it closes a workbook are deflated: the level,
// and on how many threads.
#ifndef CZIPLEVEL_H
#define CZIPLEVEL_H

/// The level the library asks for (zlib's default, 6): what is used unless a thread sets one.
#define RK_ZIP_LEVEL_LIBRARY_DEFAULT (-1)

/// Sets the deflate level (1 fastest … 9 smallest, or RK_ZIP_LEVEL_LIBRARY_DEFAULT) of zip
/// entries opened on the calling thread from now on, and resets that thread's counts of them.
void rk_zip_set_deflate_level(int level);

/// Sets how zip entries opened on the calling thread from now on are deflated: 0, by minizip
/// as it streams (the library's way); 1 or more, in 128 KB blocks on that many worker threads
/// (1: on the calling thread), each block primed with the 32 KB before it. The blocks do not
/// depend on the count, so neither do the file's bytes (for any count from 1 up).
void rk_zip_set_deflate_threads(int threads);

/// Zip entries opened on the calling thread since the last `rk_zip_set_deflate_level`; of
/// those, how many got the level set there, and how many were deflated in blocks (so a caller
/// can tell its settings took effect).
int rk_zip_entries_opened(void);
int rk_zip_entries_leveled(void);
int rk_zip_entries_in_blocks(void);

#endif
