import { stringify } from "csv-stringify/sync";

/** The most rows one CSV download of a result table holds (a larger table is refused, never cut short). */
export const MAX_DOWNLOAD_ROWS = 200_000;

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab or carriage return first) gets a leading quote, as
 * OWASP's CSV-injection advice has it: the file is opened by people, not only loaded by programs. So does every line
 * of a cell that starts one after a line break (an e-mail subject "Invoice\n=cmd|…"): a program that splits the file
 * on line breaks must not find a formula either. Numbers stay numbers.
 */
const FORMULA_LINE_START = /(^|\r\n|\r|\n)(?=[=+\-@\t\r])/g;

/** A result table's rows as CSV text: a header of its columns, then every row; lists and records as their JSON. */
export function resultsCsv(columns: string[], rows: Record<string, unknown>[]): string {
  return stringify(rows, {
    header: true,
    columns,
    bom: false,
    record_delimiter: "windows",
    // A cell holding any line break (\n or \r alone too, not only \r\n) is quoted: unquoted, it would end the record.
    quote_record_delimiter: true,
    cast: {
      boolean: (value) => String(value),
      date: (value) => value.toISOString(),
      bigint: (value) => value.toString(),
      number: (value) => String(value),
      object: (value) => (Buffer.isBuffer(value) ? value.toString("base64") : JSON.stringify(value)),
      string: (value) => value.replace(FORMULA_LINE_START, "$1'"),
    },
  });
}
