// CSV for exports (RFC 4180): fields joined by commas, lines ended by CRLF, a field quoted when it
// holds a comma, a semicolon, a tab, a quote, CR or LF, its quotes doubled. Text that a spreadsheet
// would run as a formula (it starts with = + - @, a tab or CR: OWASP's "CSV injection") gets a
// leading apostrophe, so Excel, LibreOffice and Google Sheets show it as text. A reader may split
// on another separator than ours (Excel in a German locale splits on `;`, some importers on tabs)
// and may ignore the quotes, so a formula start right after any such separator inside a cell gets
// the apostrophe too: `x;=1+1` is written `"x;'=1+1"`, never a cell starting with `=`. Numbers are
// written as they are (a negative amount is a number, not a formula).

/** One cell: text (neutralised and quoted as needed), a number, or nothing (an empty field). */
export type CsvCell = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const FORMULA_AFTER_SEPARATOR = /([,;\t\r\n])(?=[=+\-@])/g;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** A text cell as a spreadsheet shows it: formula-like text, at its start or after a separator, prefixed with '. */
export const neutralised = (text: string): string => {
  const inner = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return FORMULA_START.test(inner) ? `'${inner}` : inner;
};

/** One field as it is written. */
export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = neutralised(cell);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, with its CRLF. */
export const csvLine = (cells: readonly CsvCell[]): string => `${cells.map(csvField).join(',')}\r\n`;

/** A Content-Disposition for a download named `name` (ASCII only: the names are ours). */
export const attachment = (name: string): string => `attachment; filename="${name}"`;
