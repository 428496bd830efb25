// libxlsxwriter's per-cell helpers, done without printf and without oversized allocations.
#ifndef CXLSXCELLS_H
#define CXLSXCELLS_H

#include <stddef.h>
#include <stdint.h>

// The definitions in CXLSXCells.c replace libxlsxwriter's own (declared in its utility.h and
// xmlwriter.h) for the whole process. These names let tests call them next to the library's.

/// `A1` text of zero-based `row` and `column` into `cellName` (room for 14 bytes), as
/// libxlsxwriter's `lxw_rowcol_to_cell` writes it.
void rk_xlsx_cell_name(char *cellName, uint32_t row, uint16_t column);

/// 1 when `string` holds a control character that libxlsxwriter escapes as `_xHHHH_`.
uint8_t rk_xlsx_has_control_characters(const char *string);

/// A malloc'ed copy of `data` with `&`, `<` and `>` escaped, as `lxw_escape_data` returns it.
char *rk_xlsx_escape_data(const char *data);

/// The characters of UTF-8 `string`: its bytes that are no continuation bytes (10xxxxxx), as
/// `lxw_utf8_strlen` counts them.
size_t rk_xlsx_utf8_length(const char *string);

#endif
