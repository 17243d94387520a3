/**
 * Workbooks made by writers other than the library LabelDesk reads them with (SheetJS): Python's openpyxl for
 * .xlsx and odfpy for .ods, both from Debian (python3-openpyxl, python3-odf). Each cell is given as what it
 * holds and how it is formatted, the way a person would have typed it into a spreadsheet.
 */
import { execFileSync } from 'node:child_process';

/** One cell: text, a number (with an optional number format), a date (with its format), or nothing. */
export type Cell =
  | { text: string }
  | { number: number; format?: string; shows?: string }
  | { date: string; format: string; shows: string }
  | null;

export interface SheetSpec {
  name: string;
  rows: Cell[][];
}

/** Debian's python3, where apt installs openpyxl and odfpy (a pyenv python on PATH may not have them). */
const PYTHON = '/usr/bin/python3';

const XLSX_SCRIPT = String.raw`
import json, sys, datetime, openpyxl
path, sheets = sys.argv[1], json.loads(sys.argv[2])
wb = openpyxl.Workbook()
wb.remove(wb.active)
for spec in sheets:
    ws = wb.create_sheet(spec['name'])
    for r, row in enumerate(spec['rows'], start=1):
        for c, cell in enumerate(row, start=1):
            if cell is None:
                continue
            target = ws.cell(row=r, column=c)
            if 'text' in cell:
                target.value = cell['text']
                target.number_format = '@'
            elif 'number' in cell:
                target.value = cell['number']
                if 'format' in cell:
                    target.number_format = cell['format']
            else:
                target.value = datetime.date.fromisoformat(cell['date'])
                target.number_format = cell['format']
wb.save(path)
`;

const ODS_SCRIPT = String.raw`
import json, sys
from odf.opendocument import OpenDocumentSpreadsheet
from odf.table import Table, TableRow, TableCell
from odf.text import P
path, sheets = sys.argv[1], json.loads(sys.argv[2])
doc = OpenDocumentSpreadsheet()
for spec in sheets:
    table = Table(name=spec['name'])
    for row in spec['rows']:
        tr = TableRow()
        if not row:
            tr.addElement(TableCell())  # a row holds at least one cell (as LibreOffice writes an empty row)
        for cell in row:
            if cell is None:
                tc = TableCell()
            elif 'text' in cell:
                tc = TableCell(valuetype='string')
                tc.addElement(P(text=cell['text']))
            elif 'number' in cell:
                tc = TableCell(valuetype='float', value=cell['number'])
                tc.addElement(P(text=cell.get('shows', str(cell['number']))))
            else:
                tc = TableCell(valuetype='date', datevalue=cell['date'])
                tc.addElement(P(text=cell['shows']))
            tr.addElement(tc)
        table.addElement(tr)
    doc.spreadsheet.addElement(table)
doc.save(path)
`;

/** Writes `path` with openpyxl. */
export function writeXlsxWithOpenpyxl(path: string, sheets: SheetSpec[]): void {
  execFileSync(PYTHON, ['-c', XLSX_SCRIPT, path, JSON.stringify(sheets)]);
}

/** Writes `path` with odfpy (each cell's displayed text is given, as LibreOffice would write it). */
export function writeOdsWithOdfpy(path: string, sheets: SheetSpec[]): void {
  execFileSync(PYTHON, ['-c', ODS_SCRIPT, path, JSON.stringify(sheets)]);
}
