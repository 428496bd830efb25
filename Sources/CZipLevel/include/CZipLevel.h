// The deflate level of the zip entries libxlsxwriter writes when it closes a workbook.
#ifndef CZIPLEVEL_H
#define CZIPLEVEL_H

/// The level the library asks for (zlib's default, 6): what is used unless a thread sets one.
#define RK_ZIP_LEVEL_LIBRARY_DEFAULT (-1)

/// Sets the deflate level (1 fastest … 9 smallest, or RK_ZIP_LEVEL_LIBRARY_DEFAULT) of zip
/// entries opened on the calling thread from now on, and resets that thread's count of them.
void rk_zip_set_deflate_level(int level);

/// Zip entries opened on the calling thread since the last `rk_zip_set_deflate_level`, and
/// of those, how many got the level set there (so a caller can tell the level took effect).
int rk_zip_entries_opened(void);
int rk_zip_entries_leveled(void);

#endif
