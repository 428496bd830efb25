/* The XLSX floor for scripts/bench/run: bare libxlsxwriter writing the same cells rkexport
 * writes to results.xlsx. Loads the given CSV files (rkexport's own output tables) into memory
 * first, then times only the writing: one constant-memory sheet per table, header strings,
 * numbers for fields that parse fully as numbers, strings for the rest, nothing for empty ones.
 * Usage: xlsx_floor OUT.xlsx TABLE.csv...   Prints "seconds=<write time> cells=<n>". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <xlsxwriter.h>

typedef struct { char **fields; int count; } Row;
typedef struct { Row *rows; long count, capacity; char name[32]; } Table;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Splits one RFC 4180 record starting at *cursor; returns 0 at end of input. */
static int read_row(char **cursor, char *end, Row *row) {
    if (*cursor >= end) return 0;
    int capacity = 8;
    row->count = 0;
    row->fields = malloc(sizeof(char *) * capacity);
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
        if (row->count == capacity) row->fields = realloc(row->fields, sizeof(char *) * (capacity *= 2));
        row->fields[row->count++] = start;
        p++;
        if (terminator == '\n') break;
    }
    *cursor = p;
    return 1;
}

static int load(const char *path, Table *table) {
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
    while (read_row(&cursor, end, &row)) {
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
    if (argc < 3) { fprintf(stderr, "usage: xlsx_floor OUT.xlsx TABLE.csv...\n"); return 2; }
    int tables = argc - 2;
    Table *loaded = calloc(tables, sizeof(Table));
    for (int t = 0; t < tables; t++)
        if (!load(argv[t + 2], &loaded[t])) { fprintf(stderr, "cannot read %s\n", argv[t + 2]); return 1; }
    double start = now();
    lxw_workbook_options options = {.constant_memory = LXW_TRUE, .use_zip64 = LXW_TRUE};
    lxw_workbook *workbook = workbook_new_opt(argv[1], &options);
    if (!workbook) return 1;
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
                Row *header = &loaded[t].rows[0];
                for (int c = 0; c < header->count; c++)
                    worksheet_write_string(sheet, 0, c, header->fields[c], NULL);
                sheetRow = 1;
            }
            Row *row = &loaded[t].rows[r];
            for (int c = 0; c < row->count; c++) {
                const char *text = row->fields[c];
                if (!*text) continue;
                char *rest;
                double number = strtod(text, &rest);
                lxw_error error = (r > 0 && *rest == '\0')
                    ? worksheet_write_number(sheet, sheetRow, c, number, NULL)
                    : worksheet_write_string(sheet, sheetRow, c, text, NULL);
                if (error) { fprintf(stderr, "%s\n", lxw_strerror(error)); return 1; }
                cells++;
            }
            sheetRow++;
        }
        worksheet_freeze_panes(sheet, 1, 0);
    }
    if (workbook_close(workbook)) return 1;
    printf("seconds=%.3f cells=%ld\n", now() - start, cells);
    return 0;
}
