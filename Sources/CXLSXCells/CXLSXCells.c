// libxlsxwriter does things for every cell and row that cost more than the cell is worth.
// This file defines, in the executable, some of the library's own functions, which it calls
// through its PLT, so these come first in symbol lookup (as `__fprintf_chk` in CXLSXNumbers).
// Each writes the same bytes as the library's:
//
// - `lxw_rowcol_to_cell`, the cell's `A1` name, written with `snprintf("%d")` for the row:
//   ~650 instructions a cell, a tenth of the workbook thread. Here: digits by hand, the same
//   text, including the library's wrap-arounds and snprintf's cut (never met: the library
//   checks rows and columns before).
// - `lxw_has_control_characters`: versions before 1.1.9 (Debian 12 ships 1.1.4) loop
//   `while (string)` instead of `while (*string)`, so the terminating NUL counts as a control
//   character and every string cell takes `lxw_escape_control_characters`: a zeroed buffer of
//   seven times its length, from calloc (which bypasses glibc's per-thread cache). Here: the
//   1.1.9 check. A string without control characters then gets `lxw_strdup`, the same bytes.
// - `lxw_escape_data`, when the cell is written: a zeroed buffer of five times the length.
//   Here: the exact length from malloc; the same text, freed by the library with free().
// - `lxw_utf8_strlen`, the length check of every string cell, a byte at a time. Here: eight.
// - Each row's `<row r="…">` and `</row>`: `lxw_new_attribute_int` mallocs 4 KB per
//   attribute, zero-fills 2 KB of it (strncpy into a fixed array) and prints the number with
//   snprintf; `lxw_xml_start_tag` and `lxw_xml_end_tag` then make four fprintf calls:
//   ~3,700 instructions a row. Here: the same struct, only the strings copied, and the tag
//   written with unlocked stdio calls under one lock. These write every XML tag of the
//   workbook, with the library's escapes of attribute values.
//
// Tests compare each with the library's own definition (found with dlsym in the library).
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The library's declarations (and the attribute struct and list), so that a change in them
// fails the build instead of writing other bytes.
#include <xlsxwriter.h>
#include <xlsxwriter/xmlwriter.h>

#include "CXLSXCells.h"

// The room snprintf gets for the row (sizeof("$1048576")).
enum { rowNameLength = LXW_MAX_ROW_NAME_LENGTH };

char *rk_xlsx_decimal_text(int32_t value, char *end) {
  static const char pairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  char *start = end;
  uint32_t magnitude = value < 0 ? 0u - (uint32_t)value : (uint32_t)value;
  while (magnitude >= 100) {
    start -= 2;
    memcpy(start, pairs + 2 * (magnitude % 100), 2);
    magnitude /= 100;
  }
  if (magnitude >= 10) {
    start -= 2;
    memcpy(start, pairs + 2 * magnitude, 2);
  } else {
    *--start = (char)('0' + magnitude);
  }
  if (value < 0) *--start = '-';
  return start;
}

void lxw_rowcol_to_cell(char *cellName, lxw_row_t row, lxw_col_t column) {
  char *end = cellName;
  // lxw_col_to_name: the column plus one in base 26 with digits A–Z, in a uint16_t (65535
  // wraps to 0, which has no letters).
  uint16_t number = (uint16_t)(column + 1);
  if (number <= 26) {
    // Most cells: tables seldom have more than 26 columns.
    if (number) *end++ = (char)('A' + number - 1);
  } else {
    char letters[8];
    int letterCount = 0;
    while (number) {
      int remainder = number % 26;
      if (remainder == 0) remainder = 26;
      letters[letterCount++] = (char)('A' + remainder - 1);
      number = (uint16_t)((number - 1) / 26);
    }
    while (letterCount) *end++ = letters[--letterCount];
  }
  // snprintf(…, rowNameLength, "%d", ++row): the uint32_t row plus one, printed as an int
  // and cut to the room snprintf has.
  char digits[12];
  char *start = rk_xlsx_decimal_text((int32_t)(uint32_t)(row + 1), digits + sizeof digits);
  size_t length = (size_t)(digits + sizeof digits - start);
  if (length > rowNameLength - 1) length = rowNameLength - 1;
  memcpy(end, start, length);
  end[length] = '\0';
}

/// A word with the high bit set in each byte of `word` below 0x20 (and maybe in a byte
/// after one that is: enough to know a word needs a closer look).
static inline uint64_t bytesBelowSpace(uint64_t word) {
  return (word - 0x2020202020202020ull) & ~word & 0x8080808080808080ull;
}

uint8_t lxw_has_control_characters(const char *string) {
  size_t length = strlen(string);
  size_t at = 0;
  // Eight bytes at a time (loaded with memcpy: no read past the string); a word with a byte
  // below 0x20 is looked at byte by byte, as tabs and newlines are no control characters.
  for (; at + 8 <= length; at += 8) {
    uint64_t word;
    memcpy(&word, string + at, 8);
    if (!bytesBelowSpace(word)) continue;
    for (size_t index = at; index < at + 8; index++) {
      unsigned char byte = (unsigned char)string[index];
      if (byte < 0x20 && byte != '\n' && byte != '\t') return 1;
    }
  }
  for (; at < length; at++) {
    unsigned char byte = (unsigned char)string[at];
    if (byte < 0x20 && byte != '\n' && byte != '\t') return 1;
  }
  return 0;
}

char *lxw_escape_data(const char *data) {
  // Most texts have none of the three characters: one vectorised scan, one copy.
  size_t plain = strcspn(data, "&<>");
  size_t length = plain + strlen(data + plain);
  size_t extra = 0;
  for (const char *at = data + plain; *at; at++) {
    if (*at == '&') extra += 4;
    else if (*at == '<' || *at == '>') extra += 3;
  }
  char *escaped = malloc(length + extra + 1);
  if (!escaped) return NULL;
  if (!extra) return memcpy(escaped, data, length + 1);
  memcpy(escaped, data, plain);
  char *end = escaped + plain;
  for (const char *at = data + plain; *at; at++) {
    switch (*at) {
      case '&': memcpy(end, "&amp;", 5); end += 5; break;
      case '<': memcpy(end, "&lt;", 4); end += 4; break;
      case '>': memcpy(end, "&gt;", 4); end += 4; break;
      default: *end++ = *at;
    }
  }
  *end = '\0';
  return escaped;
}

size_t lxw_utf8_strlen(const char *string) {
  size_t length = strlen(string);
  size_t continuations = 0;
  size_t at = 0;
  // Continuation bytes are 10xxxxxx: high bit set, the next one clear; counted eight at a time.
  for (; at + 8 <= length; at += 8) {
    uint64_t word;
    memcpy(&word, string + at, 8);
    uint64_t marks = (word & 0x8080808080808080ull) & ~((word << 1) & 0x8080808080808080ull);
    continuations += (size_t)__builtin_popcountll(marks);
  }
  for (; at < length; at++) continuations += ((unsigned char)string[at] & 0xC0) == 0x80;
  return length - continuations;
}

/// `value` as `%d` prints it, into `text` (room for 12 bytes).
static void writeInteger(char *text, int32_t value) {
  char digits[12];
  char *start = rk_xlsx_decimal_text(value, digits + sizeof digits);
  size_t length = (size_t)(digits + sizeof digits - start);
  memcpy(text, start, length);
  text[length] = '\0';
}

/// LXW_ATTRIBUTE_COPY without strncpy's zero fill: at most LXW_MAX_ATTRIBUTE_LENGTH - 1 bytes.
static void copyAttributeText(char *to, const char *from) {
  size_t length = strnlen(from, LXW_MAX_ATTRIBUTE_LENGTH - 1);
  memcpy(to, from, length);
  to[length] = '\0';
}

/// ` key="value"` per attribute, the value escaped as the library's _escape_attributes does.
static void putAttributes(FILE *file, struct xml_attribute_list *attributes) {
  if (!attributes) return;
  struct xml_attribute *attribute;
  STAILQ_FOREACH(attribute, attributes, list_entries) {
    putc_unlocked(' ', file);
    fputs_unlocked(attribute->key, file);
    fputs_unlocked("=\"", file);
    const char *value = attribute->value;
    size_t plain = strcspn(value, "&<>\"\n");
    fwrite_unlocked(value, 1, plain, file);
    for (const char *at = value + plain; *at; at++) {
      switch (*at) {
        case '&': fputs_unlocked("&amp;", file); break;
        case '<': fputs_unlocked("&lt;", file); break;
        case '>': fputs_unlocked("&gt;", file); break;
        case '"': fputs_unlocked("&quot;", file); break;
        case '\n': fputs_unlocked("&#xA;", file); break;
        default: putc_unlocked(*at, file);
      }
    }
    putc_unlocked('"', file);
  }
}

static void putTag(FILE *file, const char *tag, struct xml_attribute_list *attributes,
                   const char *close) {
  flockfile(file);
  putc_unlocked('<', file);
  fputs_unlocked(tag, file);
  putAttributes(file, attributes);
  fputs_unlocked(close, file);
  funlockfile(file);
}

struct xml_attribute *lxw_new_attribute_str(const char *key, const char *value) {
  struct xml_attribute *attribute = malloc(sizeof *attribute);
  if (!attribute) return NULL;
  copyAttributeText(attribute->key, key);
  copyAttributeText(attribute->value, value);
  return attribute;
}

struct xml_attribute *lxw_new_attribute_int(const char *key, uint32_t value) {
  struct xml_attribute *attribute = malloc(sizeof *attribute);
  if (!attribute) return NULL;
  copyAttributeText(attribute->key, key);
  writeInteger(attribute->value, (int32_t)value);
  return attribute;
}

void lxw_xml_start_tag(FILE *xmlfile, const char *tag, struct xml_attribute_list *attributes) {
  putTag(xmlfile, tag, attributes, ">");
}

void lxw_xml_empty_tag(FILE *xmlfile, const char *tag, struct xml_attribute_list *attributes) {
  putTag(xmlfile, tag, attributes, "/>");
}

void lxw_xml_end_tag(FILE *xmlfile, const char *tag) {
  flockfile(xmlfile);
  fputs_unlocked("</", xmlfile);
  fputs_unlocked(tag, xmlfile);
  putc_unlocked('>', xmlfile);
  funlockfile(xmlfile);
}
