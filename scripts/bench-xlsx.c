/* Baseline for scripts/bench-xlsx: N rows x 10 mixed cells written straight through
 * libxlsxwriter in constant-memory mode, the same cells XLSXWorkbook writes.
 * Usage: bench-xlsx-c ROWS OUT.xlsx   (prints rows/s; peak memory comes from /usr/bin/time) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <xlsxwriter.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int check(lxw_error err, const char *what) {
    if (err) fprintf(stderr, "%s: %s\n", what, lxw_strerror(err));
    return err != LXW_NO_ERROR;
}

int main(int argc, char **argv) {
    long rows = argc > 1 ? atol(argv[1]) : 200000;
    const char *path = argc > 2 ? argv[2] : "bench-c.xlsx";
    lxw_workbook_options options = {.constant_memory = LXW_TRUE, .use_zip64 = LXW_TRUE};
    lxw_workbook *workbook = workbook_new_opt(path, &options);
    if (!workbook) return 1;
    lxw_worksheet *sheet = workbook_add_worksheet(workbook, "answers");
    lxw_format *date = workbook_add_format(workbook);
    format_set_num_format(date, "yyyy-mm-dd hh:mm:ss.000");
    lxw_format *integer = workbook_add_format(workbook);
    format_set_num_format(integer, "0");
    lxw_format *seconds = workbook_add_format(workbook);
    format_set_num_format(seconds, "0.000");
    const char *headers[10] = {"participant_id", "item_id", "value_index", "value_number",
                               "flag", "answer_start", "answer_duration_s", "value",
                               "percent", "answer_end"};
    for (int c = 0; c < 10; c++)
        if (check(worksheet_write_string(sheet, 0, c, headers[c], NULL), "header")) return 1;
    char id[32], text[64];
    double start = now();
    for (long r = 1; r <= rows; r++) {
        double serial = 42506.0 + r / 86400.0;
        snprintf(id, sizeof id, "P%05ld", r % 1000);
        snprintf(text, sizeof text, "answer text number %ld", r);
        int bad = check(worksheet_write_string(sheet, r, 0, id, NULL), "cell")
            || check(worksheet_write_string(sheet, r, 1, "mood", NULL), "cell")
            || check(worksheet_write_number(sheet, r, 2, r % 5 + 1, integer), "cell")
            || check(worksheet_write_number(sheet, r, 3, r * 0.25, NULL), "cell")
            || check(worksheet_write_boolean(sheet, r, 4, r % 2, NULL), "cell")
            || check(worksheet_write_number(sheet, r, 5, serial, date), "cell")
            || check(worksheet_write_number(sheet, r, 6, 1.5, seconds), "cell")
            || check(worksheet_write_string(sheet, r, 7, text, NULL), "cell")
            || check(worksheet_write_number(sheet, r, 8, 12.5, NULL), "cell")
            || check(worksheet_write_number(sheet, r, 9, serial + 0.001, date), "cell");
        if (bad) return 1;
    }
    worksheet_freeze_panes(sheet, 1, 0);
    if (check(worksheet_autofilter(sheet, 0, 0, rows, 9), "autofilter")) return 1;
    if (check(workbook_close(workbook), "close")) return 1;
    double elapsed = now() - start;
    printf("c      rows=%ld seconds=%.2f rows_per_s=%.0f\n", rows, elapsed, rows / elapsed);
    return 0;
}
