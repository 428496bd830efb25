/* The XLSX floor for scripts/bench/run: bare libxlsxwriter writing the same cells rkexport
 * writes to results.xlsx. Loads the given CSV files (rkexport's own output tables) into memory
 * and decides every cell first, then times only the writing: one constant-memory sheet per
 * table, a bold header row, and per column type (from datapackage.json, passed as TYPES) the
 * cell rkexport writes: s = string; n = number (string when it does not parse fully);
 * i = integer with format "0" (n: whole numbers so too); a = any (answers.value: boolean,
 * date-time, number or text by the field's form); u = seconds with format "0.000"; d = date serial in the
 * exported wall-clock time with a date-time format; b = boolean. Empty fields are skipped.
 * Without TYPES, fields that parse fully as numbers are numbers and the rest strings.
 * Usage: xlsx_floor OUT.xlsx TABLE.csv[=TYPES]...   Prints "seconds=<write time> cells=<n>". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xlsxwriter.h>

enum { TEXT, NUMBER, INTEGER, SECONDS, DATE, BOOLEAN };
typedef struct { const char *text; double value; int kind; } Cell;
typedef struct { Cell *cells; int count; } Row;
typedef struct { Row *rows; long count, capacity; char name[32]; } Table;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Days from 1970-01-01 to a civil date (proleptic Gregorian). */
static long days_from_civil(long y, long m, long d) {
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* The Excel serial of "YYYY-MM-DDTHH:MM:SS.mmm<zone>" as rkexport computes it: the wall-clock
 * time written (already in the output zone), whole days and day fraction apart. */
static int date_serial(const char *text, double *serial) {
    int y, mo, d, h, mi, s, ms;
    if (sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d.%3d", &y, &mo, &d, &h, &mi, &s, &ms) != 7) return 0;
    long day = days_from_civil(y, mo, d) + 25569;
    if (day < 61 || day >= 2958466) return 0;
    long milliseconds = ((h * 60L + mi) * 60 + s) * 1000 + ms;
    *serial = (double)day + (double)milliseconds / 86400000.0;
    return 1;
}

/* Decides how one field is written, as rkexport does for its column type. */
static Cell decide(const char *text, char type, int header) {
    Cell cell = {text, 0, TEXT};
    char *rest;
    if (header || !*text) return cell;
    switch (type) {
    case 'd':
        if (date_serial(text, &cell.value)) cell.kind = DATE;
        break;
    case 'b':
        if (!strcmp(text, "true") || !strcmp(text, "false")) {
            cell.kind = BOOLEAN;
            cell.value = text[0] == 't';
        }
        break;
    case 'a':
        /* answers.value: each answer's own type (boolean, date-time, number or text). */
        if (!strcmp(text, "true") || !strcmp(text, "false")) return decide(text, 'b', 0);
        if (date_serial(text, &cell.value)) { cell.kind = DATE; break; }
        return decide(text, '?', 0);
    case 'n':
        /* Whole numbers are written as integers (format "0"), others as numbers. */
        return decide(text, strpbrk(text, ".eE") ? '?' : 'i', 0);
    case 'i': case 'u': case '?':
        cell.value = strtod(text, &rest);
        /* NaN, infinities and integers past 15 digits stay text, as in rkexport. */
        if (*rest == '\0' && isfinite(cell.value) && (type != 'i' || fabs(cell.value) < 1e15))
            cell.kind = type == 'i' ? INTEGER : type == 'u' ? SECONDS : NUMBER;
        break;
    }
    return cell;
}

/* Splits one RFC 4180 record starting at *cursor; returns 0 at end of input. */
static int read_row(char **cursor, char *end, Row *row, const char *types, int header) {
    if (*cursor >= end) return 0;
    int capacity = 8;
    row->count = 0;
    row->cells = malloc(sizeof(Cell) * capacity);
    char *p = *cursor;
    for (;;) {
        char *out = p, *start = p;
        if (p < end && *p == '"') {
            p++;
            while (p < end) {
                if (*p == '"' && p + 1 < end && p[1] == '"') { *out++ = '"'; p += 2; }
                else if (*p == '"') { p++; break; }
                else *out++ = *p++;
            }
        } else {
            while (p < end && *p != ',' && *p != '\n') *out++ = *p++;
        }
        char terminator = p < end ? *p : '\n';
        *out = '\0';
        if (row->count == capacity) row->cells = realloc(row->cells, sizeof(Cell) * (capacity *= 2));
        char type = types && row->count < (int)strlen(types) ? types[row->count] : '?';
        row->cells[row->count] = decide(start, type, header);
        row->count++;
        p++;
        if (terminator == '\n') break;
    }
    *cursor = p;
    return 1;
}

static int load(const char *argument, Table *table) {
    char path[4096];
    snprintf(path, sizeof path, "%s", argument);
    char *types = strchr(path, '=');
    if (types) *types++ = '\0';
    FILE *file = fopen(path, "rb");
    if (!file) return 0;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *data = malloc(size + 1);
    if (fread(data, 1, size, file) != (size_t)size) return 0;
    fclose(file);
    char *cursor = data, *end = data + size;
    table->count = 0;
    table->capacity = 1024;
    table->rows = malloc(sizeof(Row) * table->capacity);
    Row row;
    while (read_row(&cursor, end, &row, types, table->count == 0)) {
        if (table->count == table->capacity)
            table->rows = realloc(table->rows, sizeof(Row) * (table->capacity *= 2));
        table->rows[table->count++] = row;
    }
    const char *base = strrchr(path, '/');
    snprintf(table->name, sizeof table->name, "%s", base ? base + 1 : path);
    char *dot = strrchr(table->name, '.');
    if (dot) *dot = '\0';
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: xlsx_floor OUT.xlsx TABLE.csv[=TYPES]...\n"); return 2; }
    int tables = argc - 2;
    Table *loaded = calloc(tables, sizeof(Table));
    for (int t = 0; t < tables; t++)
        if (!load(argv[t + 2], &loaded[t])) { fprintf(stderr, "cannot read %s\n", argv[t + 2]); return 1; }
    double start = now();
    lxw_workbook_options options = {.constant_memory = LXW_TRUE, .use_zip64 = LXW_TRUE};
    lxw_workbook *workbook = workbook_new_opt(argv[1], &options);
    if (!workbook) return 1;
    /* The formats rkexport uses. */
    lxw_format *header = workbook_add_format(workbook);
    format_set_bold(header);
    format_set_bg_color(header, 0xDDE6F0);
    format_set_bottom(header, LXW_BORDER_THIN);
    lxw_format *formats[6] = {NULL, NULL};
    formats[INTEGER] = workbook_add_format(workbook);
    format_set_num_format(formats[INTEGER], "0");
    formats[SECONDS] = workbook_add_format(workbook);
    format_set_num_format(formats[SECONDS], "0.000");
    formats[DATE] = workbook_add_format(workbook);
    format_set_num_format(formats[DATE], "yyyy-mm-dd hh:mm:ss.000");
    formats[BOOLEAN] = workbook_add_format(workbook);
    format_set_num_format(formats[BOOLEAN], "\"TRUE\";\"TRUE\";\"FALSE\"");
    long cells = 0;
    for (int t = 0; t < tables; t++) {
        char name[40];
        snprintf(name, sizeof name, "%d %s", t, loaded[t].name);
        lxw_worksheet *sheet = workbook_add_worksheet(workbook, name);
        long sheetRow = 0;
        int part = 1;
        for (long r = 0; r < loaded[t].count; r++) {
            /* Past Excel's 1,048,576 rows, continue on a new sheet (header repeated), as rkexport does. */
            if (sheetRow == 1048576) {
                worksheet_freeze_panes(sheet, 1, 0);
                snprintf(name, sizeof name, "%d %s (%d)", t, loaded[t].name, ++part);
                sheet = workbook_add_worksheet(workbook, name);
                Row *first = &loaded[t].rows[0];
                for (int c = 0; c < first->count; c++)
                    worksheet_write_string(sheet, 0, c, first->cells[c].text, header);
                sheetRow = 1;
            }
            Row *row = &loaded[t].rows[r];
            for (int c = 0; c < row->count; c++) {
                const Cell *cell = &row->cells[c];
                if (!*cell->text) continue;
                lxw_error error;
                switch (cell->kind) {
                case TEXT:
                    error = worksheet_write_string(sheet, sheetRow, c, cell->text, r ? NULL : header);
                    break;
                case BOOLEAN:
                    error = worksheet_write_boolean(sheet, sheetRow, c, (int)cell->value, formats[BOOLEAN]);
                    break;
                default:
                    error = worksheet_write_number(sheet, sheetRow, c, cell->value, formats[cell->kind]);
                }
                if (error) { fprintf(stderr, "%s\n", lxw_strerror(error)); return 1; }
                cells++;
            }
            sheetRow++;
        }
        worksheet_freeze_panes(sheet, 1, 0);
    }
    double closing = now();
    if (workbook_close(workbook)) return 1;
    double end = now();
    printf("seconds=%.3f cells=%ld close=%.3f\n", end - start, cells, end - closing);
    return 0;
}
