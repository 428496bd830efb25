// libxlsxwriter writes each number cell with one fprintf (fortified: __fprintf_chk) whose
// format ends in `<v>%.16G</v></c>`. That costs twice over:
// - time: glibc prints a double exactly, with multi-precision arithmetic, about 0.6 µs a
//   cell on our 2-core host; a workbook of 10,000 archives has 1.7 million number cells, and
//   the workbook's thread is the slowest part of an XLSX export;
// - precision: 16 significant digits are one short of a double's round trip, so
//   39.074999999999996 was stored as 39.075 and 0.1 + 0.2 as 0.3, other numbers than the
//   CSV's.
// This definition, in the executable, comes before glibc's in symbol lookup (libxlsxwriter
// calls it through its PLT). For exactly libxlsxwriter's two number-cell formats and a finite
// number it writes the same XML with the shortest round-trip text of the number (from the
// formatter rkexport registers: Swift's own, as in the CSV); every other call goes to glibc's
// __vfprintf_chk untouched.
#define _GNU_SOURCE
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "CXLSXCells.h"
#include "CXLSXNumbers.h"

// glibc's (stdio.h declares it only under _FORTIFY_SOURCE).
int __vfprintf_chk(FILE *stream, int flag, const char *format, va_list arguments);

// libxlsxwriter 1.1.4's formats (worksheet.c, _write_number_cell), compared in full.
static const char styledFormat[] = "<c r=\"%s\" s=\"%d\"><v>%.16G</v></c>";
static const char plainFormat[] = "<c r=\"%s\"><v>%.16G</v></c>";

static RKNumberFormatter registered;
// Where the library keeps the two formats, once seen: later calls compare one pointer.
static const char *styledSeen;
static const char *plainSeen;
static _Thread_local unsigned long formatted;

void rk_xlsx_set_number_formatter(RKNumberFormatter formatter) {
  __atomic_store_n(&registered, formatter, __ATOMIC_RELEASE);
}

unsigned long rk_xlsx_numbers_formatted(void) { return formatted; }

enum CellFormat { otherFormat, styledCell, plainCell };

static enum CellFormat cellFormat(const char *format) {
  if (format == __atomic_load_n(&styledSeen, __ATOMIC_RELAXED)) return styledCell;
  if (format == __atomic_load_n(&plainSeen, __ATOMIC_RELAXED)) return plainCell;
  // Every cell format starts `<c r="%s"`, then the number ones go on with `>` or ` s=`, the
  // unstyled text cells (most cells) with ` t=`: those are told apart without a full compare.
  if (strncmp(format, plainFormat, 9) != 0) return otherFormat;
  if (format[9] == '>') {
    if (strcmp(format, plainFormat) != 0) return otherFormat;
    __atomic_store_n(&plainSeen, format, __ATOMIC_RELAXED);
    return plainCell;
  }
  if (format[9] != ' ' || format[10] != 's' || strcmp(format, styledFormat) != 0)
    return otherFormat;
  __atomic_store_n(&styledSeen, format, __ATOMIC_RELAXED);
  return styledCell;
}

static char *append(char *to, const char *text, size_t length) {
  memcpy(to, text, length);
  return to + length;
}

/// The cell as the format prints it, with the number's shortest text; -2 when it cannot be
/// written here (printf then writes it).
static int writeCell(FILE *stream, const char *range, enum CellFormat kind, int style,
                     double number, RKNumberFormatter formatter) {
  char line[160];
  size_t rangeLength = strnlen(range, 32);
  if (rangeLength == 32) return -2;
  char *end = append(line, "<c r=\"", 6);
  end = append(end, range, rangeLength);
  if (kind == styledCell) {
    char digits[12];
    char *start = rk_xlsx_decimal_text(style, digits + sizeof digits);
    end = append(end, "\" s=\"", 5);
    end = append(end, start, (size_t)(digits + sizeof digits - start));
  }
  end = append(end, "\"><v>", 5);
  size_t length = formatter(number, end, 48);
  if (length == 0 || length > 48) return -2;
  end += length;
  end = append(end, "</v></c>", 8);
  size_t total = (size_t)(end - line);
  if (fwrite(line, 1, total, stream) != total) return -1;
  formatted += 1;
  return (int)total;
}

int __fprintf_chk(FILE *stream, int flag, const char *format, ...) {
  va_list arguments;
  va_start(arguments, format);
  int result = -2;
  RKNumberFormatter formatter = __atomic_load_n(&registered, __ATOMIC_ACQUIRE);
  enum CellFormat kind = formatter ? cellFormat(format) : otherFormat;
  if (kind != otherFormat) {
    va_list peek;
    va_copy(peek, arguments);
    const char *range = va_arg(peek, const char *);
    int style = kind == styledCell ? va_arg(peek, int) : 0;
    double number = va_arg(peek, double);
    va_end(peek);
    // INF and NAN as printf spells them (no valid cell either way).
    if (range && isfinite(number))
      result = writeCell(stream, range, kind, style, number, formatter);
  }
  if (result == -2) result = __vfprintf_chk(stream, flag, format, arguments);
  va_end(arguments);
  return result;
}
