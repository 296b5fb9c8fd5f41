import { Zip, ZipDeflate } from "fflate";
import type { CellOut } from "./cells";
import { type CellKind, type Column, cellByKind, headerOf, kindOf, looksLikeFormula } from "./cells";

/** Pages of rows, each read only when the writer has sent the previous one. */
export type RowPages = AsyncIterable<readonly (readonly CellOut[])[]>;

/** A pull stream over chunks: the next one is produced only when the reader asks for it. */
export function byteStream(chunks: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const next = await chunks.next();
        if (next.done) {
          controller.close();
          return;
        }
        if (next.value.byteLength > 0) {
          controller.enqueue(next.value);
          return;
        }
      }
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}

export interface SheetStream {
  /** Sheet name (Excel allows at most 31 characters and none of `[]:*?/\`). */
  name: string;
  /** The columns: a header, or a header and its cells' kind (an identity number, a date). */
  header: readonly Column[];
  /** Column widths in characters, optional. */
  widths?: readonly number[];
  /** The rows, page by page; called when the writer reaches this sheet. */
  pages: () => RowPages;
}

/**
 * Deflate level (1 fastest … 9 smallest). Measured on the 18,000-person export: level 1 costs a third
 * less CPU than 6 (680 against 1,010 ms) for a file 15% larger (1,778 against 1,544 KiB).
 */
const DEFLATE_LEVEL = 1;

const NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships";
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
// C0 controls other than tab, LF and CR, and U+FFFE/U+FFFF, are not XML characters at all.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function xmlText(text: string): string {
  return text.replace(NOT_XML, "").replace(/[&<>"]/g, (c) => ESCAPES[c] ?? c);
}

/** A, B, … Z, AA, AB, …: the column part of a cell reference. */
function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

/**
 * One `<row>`, each cell first shaped by its column's kind (an identity number as its digits, a date as
 * `YYYY-MM-DD`): strings as inline text cells (never a number or a formula, so a NIK and "0812…" stay
 * as written, and no shared-strings table has to be held until the end), finite numbers as numbers,
 * null as no cell. Style 1 is the bold header; style 2 (Text format, quote prefix) marks a string that
 * looks like a formula, so editing the cell in Excel keeps it text.
 */
function rowXml(
  cells: readonly CellOut[],
  row: number,
  columns: readonly string[],
  style = "",
  kinds: readonly CellKind[] = [],
): string {
  let xml = `<row r="${row}">`;
  for (let c = 0; c < cells.length; c++) {
    const value = cellByKind(kinds[c] ?? "general", cells[c] ?? null);
    const ref = `${columns[c] ?? columnName(c)}${row}`;
    if (typeof value === "number") {
      if (Number.isFinite(value)) {
        xml += `<c r="${ref}"${style}><v>${value}</v></c>`;
      }
    } else if (value !== null && value !== undefined && value !== "") {
      const space = /^\s|\s$/.test(value) ? ' xml:space="preserve"' : "";
      const cellStyle = style || (looksLikeFormula(value) ? ' s="2"' : "");
      xml += `<c r="${ref}"${cellStyle} t="inlineStr"><is><t${space}>${xmlText(value)}</t></is></c>`;
    }
  }
  return `${xml}</row>`;
}

function sheetHead(sheet: SheetStream): string {
  const cols = sheet.widths?.length
    ? `<cols>${sheet.widths.map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`).join("")}</cols>`
    : "";
  // The header row stays in view while scrolling (a frozen pane under row 1).
  const view =
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>';
  return `${XML_HEAD}<worksheet xmlns="${NS}" xmlns:r="${REL_NS}">${view}<sheetFormatPr defaultRowHeight="15"/>${cols}<sheetData>`;
}

function packageParts(sheets: readonly SheetStream[]): [string, string][] {
  const sheetTypes = sheets
    .map(
      (_, i) =>
        `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    )
    .join("");
  return [
    [
      "[Content_Types].xml",
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${sheetTypes}</Types>`,
    ],
    [
      "_rels/.rels",
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      "xl/workbook.xml",
      `${XML_HEAD}<workbook xmlns="${NS}" xmlns:r="${REL_NS}"><sheets>${sheets
        .map((s, i) => `<sheet name="${xmlText(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`)
        .join("")}</sheets></workbook>`,
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `${XML_HEAD}<Relationships xmlns="${PKG_REL_NS}">${sheets
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        )
        .join(
          "",
        )}<Relationship Id="rId${sheets.length + 1}" Type="${REL_NS}/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      "xl/styles.xml",
      `${XML_HEAD}<styleSheet xmlns="${NS}"><fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" quotePrefix="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    ],
  ];
}

/**
 * A workbook written as it is read: each sheet's XML is produced page by page and deflated into the
 * ZIP at once (fflate's streaming `Zip`, synchronous, so it runs in workerd), so memory holds one page
 * and the compressor's window, never the whole registry. Same layout rules as `writeWorkbook` (strings
 * stay text cells; the first row is the header, bold and frozen), read back by `readWorkbook`.
 */
export function streamWorkbook(sheets: readonly SheetStream[]): ReadableStream<Uint8Array> {
  return byteStream(
    (async function* () {
      const encoder = new TextEncoder();
      let pending: Uint8Array[] = [];
      const zip = new Zip((error, chunk) => {
        if (error) {
          throw error;
        }
        pending.push(chunk);
      });
      const take = () => {
        const chunks = pending;
        pending = [];
        return concat(chunks);
      };
      for (const [name, text] of packageParts(sheets)) {
        const file = new ZipDeflate(name, { level: DEFLATE_LEVEL });
        zip.add(file);
        file.push(encoder.encode(text), true);
      }
      yield take();
      for (const [index, sheet] of sheets.entries()) {
        const columns = Array.from({ length: Math.max(sheet.header.length, 1) }, (_, c) => columnName(c));
        const file = new ZipDeflate(`xl/worksheets/sheet${index + 1}.xml`, { level: DEFLATE_LEVEL });
        zip.add(file);
        const kinds = sheet.header.map(kindOf);
        file.push(
          encoder.encode(sheetHead(sheet) + rowXml(sheet.header.map(headerOf), 1, columns, ' s="1"')),
        );
        let row = 2;
        for await (const page of sheet.pages()) {
          let xml = "";
          for (const cells of page) {
            xml += rowXml(cells, row++, columns, "", kinds);
          }
          file.push(encoder.encode(xml));
          yield take();
        }
        file.push(encoder.encode("</sheetData></worksheet>"), true);
        yield take();
      }
      zip.end();
      yield take();
    })(),
  );
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0]) {
    return chunks[0];
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
