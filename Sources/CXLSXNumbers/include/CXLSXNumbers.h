// The text of the workbook's number cells: libxlsxwriter prints them with printf's %.16G.
#ifndef CXLSXNUMBERS_H
#define CXLSXNUMBERS_H

#include <stddef.h>

/// Writes finite `value` into `buffer` (room for `capacity` bytes, at least 32) as the shortest
/// text that reads back as the same double; returns its length, or 0 to leave the cell to
/// printf.
typedef size_t (*RKNumberFormatter)(double value, char *buffer, size_t capacity);

/// From now on, number cells libxlsxwriter writes (on any thread) take their text from
/// `formatter`; NULL gives them back to printf.
void rk_xlsx_set_number_formatter(RKNumberFormatter formatter);

/// Number cells the calling thread wrote through the formatter so far.
unsigned long rk_xlsx_numbers_formatted(void);

#endif
