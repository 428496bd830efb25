"""Reads an .xlsx written by rkexport with openpyxl and prints what a reader sees, as JSON.

Used by the Swift XLSX tests (Tests/RKWriteTests/XLSX*Tests.swift):
    python3 Tests/readback/test_xlsx_readback.py results.xlsx
Cells are [openpyxl data type, value, number format]; dates are ISO text to the microsecond.
Chart ranges and titles come from the zip's chart parts, which openpyxl does not load.
"""
import datetime
import json
import re
import sys
import zipfile

import openpyxl


def cell_json(cell):
    if cell.value is None:
        return None
    value = cell.value
    if isinstance(value, datetime.datetime):
        value = value.isoformat(timespec="microseconds")
    return [cell.data_type, value, cell.number_format]


def dump(path):
    book = openpyxl.load_workbook(path)
    props = book.properties
    custom = {p.name: p.value for p in book.custom_doc_props.props}
    sheets = []
    for sheet in book.worksheets:
        rows = [[cell_json(c) for c in row] for row in sheet.iter_rows()]
        notes = {c.coordinate: c.comment.text for row in sheet.iter_rows() for c in row if c.comment}
        widths = {k: v.width for k, v in sheet.column_dimensions.items() if v.width}
        header_bold = [bool(c.font and c.font.b) for c in sheet[1]] if sheet.max_row else []
        sheets.append({
            "name": sheet.title,
            "freeze": sheet.freeze_panes,
            "filter": sheet.auto_filter.ref,
            "rows": rows,
            "notes": notes,
            "widths": widths,
            "headerBold": header_bold,
        })
    charts = []
    with zipfile.ZipFile(path) as archive:
        for name in sorted(n for n in archive.namelist() if n.startswith("xl/charts/chart")):
            xml = archive.read(name).decode("utf-8")
            charts.append({
                "part": name,
                "ranges": re.findall(r"<c:f>([^<]*)</c:f>", xml),
                "titles": re.findall(r"<a:t>([^<]*)</a:t>", xml),
                "barDirection": re.findall(r'<c:barDir val="(\w+)"', xml),
            })
    return {
        "sheetNames": book.sheetnames,
        "title": props.title,
        "created": props.created.isoformat() if props.created else None,
        "description": props.description,
        "custom": custom,
        "sheets": sheets,
        "charts": charts,
    }


if __name__ == "__main__":
    json.dump(dump(sys.argv[1]), sys.stdout, ensure_ascii=False)
