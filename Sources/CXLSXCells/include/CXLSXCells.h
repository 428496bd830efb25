// libxlsxwriter's per-cell and per-row helpers, done without printf and without oversized
// allocations.
#ifndef CXLSXCELLS_H
#define CXLSXCELLS_H

// CXLSXCells.c defines, under the library's own names and with its own declarations
// (xlsxwriter/utility.h, xlsxwriter/xmlwriter.h), functions that replace libxlsxwriter's for
// the whole process: lxw_rowcol_to_cell, lxw_has_control_characters, lxw_escape_data,
// lxw_utf8_strlen, lxw_new_attribute_str, lxw_new_attribute_int, lxw_xml_start_tag,
// lxw_xml_empty_tag and lxw_xml_end_tag. Call them through the library's headers; a program
// that links this target gets these definitions.

#include <stdint.h>

/// `value` as printf's `%d` prints it, two digits at a time, written backwards to end just
/// before `end` (room for 11 bytes before it); returns where it starts. The row numbers and
/// integer attributes here, and CXLSXNumbers' style indexes, use it.
char *rk_xlsx_decimal_text(int32_t value, char *end);

#endif
