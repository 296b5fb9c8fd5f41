import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { readWorkbook, streamWorkbook, writeWorkbook, XLSX_LIMITS } from "../../../src/platform/spreadsheets";
import { openWorkbookRows } from "../../../src/platform/spreadsheets/rows";
import { codeOf } from "../../helpers/domain-errors";
import { callJson, createTenant, expectProblem } from "../../helpers/harness";

/**
 * The registry import reads an .xlsx row by row (platform/spreadsheets/rows.ts, ADR 0037) instead of through
 * SheetJS's whole-workbook model. These tests hold it to the cells SheetJS answers (`readWorkbook`) on
 * the workbooks the export and SheetJS write, and on a workbook laid out as Excel saves one (shared
 * strings, date formats, gaps), and check the import's report and row numbers through the route.
 */

const NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PKG = "http://schemas.openxmlformats.org/package/2006/relationships";

/** A workbook as Excel saves it: one sheet, shared strings, styles; `sheetXml` is the `<sheetData>`. */
function excelBook(opts: {
  sheet?: string;
  sheetData: string;
  strings: string[];
  date1904?: boolean;
  sheetPart?: Uint8Array;
}) {
  const sst = opts.strings.map((s) => (s.startsWith("<") ? `<si>${s}</si>` : `<si><t>${s}</t></si>`));
  return zipSync(
    {
      "[Content_Types].xml": strToU8(
        `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
      ),
      "_rels/.rels": strToU8(
        `<?xml version="1.0"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
      "xl/workbook.xml": strToU8(
        `<?xml version="1.0"?><workbook xmlns="${NS}" xmlns:r="${REL}"><workbookPr${opts.date1904 ? ' date1904="1"' : ""}/><sheets><sheet name="${opts.sheet ?? "Anggota"}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
      "xl/_rels/workbook.xml.rels": strToU8(
        `<?xml version="1.0"?><Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
      ),
      // Styles: 0 General, 1 built-in date (14), 2 custom dd/mm/yyyy, 3 a quoted "d" in a number format.
      "xl/styles.xml": strToU8(
        `<?xml version="1.0"?><styleSheet xmlns="${NS}"><numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/><numFmt numFmtId="165" formatCode="#,##0&quot; d&quot;"/></numFmts><cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164" applyNumberFormat="1"/><xf numFmtId="165" applyNumberFormat="1"/></cellXfs></styleSheet>`,
      ),
      "xl/sharedStrings.xml": strToU8(
        `<?xml version="1.0"?><sst xmlns="${NS}" count="${sst.length}" uniqueCount="${sst.length}">${sst.join("")}</sst>`,
      ),
      "xl/worksheets/sheet1.xml":
        opts.sheetPart ??
        strToU8(
          `<?xml version="1.0"?><worksheet xmlns="${NS}"><sheetData>${opts.sheetData}</sheetData></worksheet>`,
        ),
    },
    { level: opts.sheetPart ? 1 : 6 },
  );
}

/** Every sheet's rows as `readWorkbook` shapes them (blank rows where the sheet has none). */
function streamedAsSheetJs(bytes: Uint8Array) {
  return openWorkbookRows(bytes).map((sheet) => {
    const rows: (string | null)[][] = [];
    for (const { line, cells } of sheet.rows()) {
      while (rows.length < line - 1) {
        rows.push([]);
      }
      rows.push(cells);
    }
    return { name: sheet.name, rows };
  });
}

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

describe("reading an .xlsx row by row", () => {
  it("answers the cells SheetJS answers, on SheetJS's own workbooks and the streamed export", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => [
      `32040201${String(10_000_000 + i)}`,
      i % 7 === 0 ? null : `Nama ${"panjang ".repeat(i % 5)}${i} & <Ö>`,
      i,
      i % 11 === 0 ? "  spasi  " : "0812345",
      i % 13 === 0 ? null : `"kutip" 'satu' ${"x".repeat(i % 300)}`,
    ]);
    const header = ["NIK", "Nama", "Urut", "HP", "Catatan"];
    const sheetJs = writeWorkbook([
      { name: "KK", header: ["No. KK"], rows: [["3204020101200001"]] },
      { name: "Anggota", header, rows },
    ]);
    expect(streamedAsSheetJs(sheetJs)).toEqual(readWorkbook(sheetJs));
    const streamed = await bytesOf(
      streamWorkbook([
        {
          name: "Anggota",
          header,
          pages: async function* () {
            for (let i = 0; i < rows.length; i += 700) {
              yield rows.slice(i, i + 700);
            }
          },
        },
      ]),
    );
    const mine = streamedAsSheetJs(streamed);
    expect(mine).toEqual(readWorkbook(streamed));
    expect(mine[0]?.rows).toHaveLength(3001);
    expect(mine[0]?.rows[3000]?.[0]).toBe("3204020110002999");
  });

  it("reads shared strings, rich text, dates by format, numbers, booleans, errors and gaps as Excel saves them", () => {
    const bytes = excelBook({
      strings: [
        "NIK",
        "Nama",
        "Lahir",
        "Catatan",
        "<r><t>Siti </t></r><r><t>Ärni</t></r><rPh><t>x</t></rPh>",
      ],
      sheetData: [
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>',
        '<row r="2"><c r="A2"><v>3204021503800001</v></c><c r="B2" t="s"><v>4</v></c><c r="C2" s="1"><v>29295</v></c><c r="D2" s="3"><v>12</v></c></row>',
        '<row r="5" spans="1:4"><c r="A5" t="str"><f>A2&amp;""</f><v>3204021503800002</v></c><c r="C5" s="2"><v>45000.75</v></c><c r="D5" t="b"><v>1</v></c></row>',
        '<row r="6"><c r="A6" t="e"><v>#N/A</v></c><c r="B6" t="inlineStr"><is><t xml:space="preserve"> Budi &amp; _x0041_ </t></is></c><c r="D6"><v>1.5E+3</v></c></row>',
        '<row r="7"/><row r="8"><c r="A8" s="1"/></row>',
      ].join(""),
    });
    const rows = [...(openWorkbookRows(bytes)[0]?.rows() ?? [])];
    expect(rows).toEqual([
      { line: 1, cells: ["NIK", "Nama", "Lahir", "Catatan"] },
      { line: 2, cells: ["3204021503800001", "Siti Ärni", "1980-03-15", "12"] },
      { line: 5, cells: ["3204021503800002", null, "2023-03-15", "TRUE"] },
      { line: 6, cells: [null, "Budi & A", null, "1500"] },
    ]);
    // SheetJS answers the same cells (its sheet starts at row 1; rows 3, 4, 7 and 8 are blank).
    expect(streamedAsSheetJs(bytes)).toEqual(readWorkbook(bytes));
    const old = excelBook({
      strings: [],
      sheetData: '<row r="1"><c r="A1" s="1"><v>0</v></c></row>',
      date1904: true,
    });
    expect([...(openWorkbookRows(old)[0]?.rows() ?? [])]).toEqual([{ line: 1, cells: ["1904-01-01"] }]);
  });

  it("keeps the caps: a lying directory stops the inflater, a missing sheet is refused before any row, a row has a size", () => {
    const bomb = new Uint8Array(XLSX_LIMITS.partBytes + 1024).fill(0x20);
    const bytes = excelBook({ strings: [], sheetData: "" });
    const lying = declareSize(
      excelBook({ strings: [], sheetData: "", sheetPart: bomb }),
      "xl/worksheets/sheet1.xml",
      100,
    );
    const sheets = openWorkbookRows(lying);
    expect(codeOf(() => [...(sheets[0]?.rows() ?? [])])).toBe("spreadsheet_too_large");
    expect(codeOf(() => openWorkbookRows(bytes, { required: ["KK"] }))).toBe("spreadsheet_sheet_missing");
    const long = `<row r="1"><c r="A1" t="inlineStr"><is><t>${"x".repeat(1024 * 1024)}</t></is></c></row>`;
    const wide = excelBook({ strings: [], sheetData: long });
    expect(codeOf(() => [...(openWorkbookRows(wide)[0]?.rows() ?? [])])).toBe("spreadsheet_too_large");
    const cut = excelBook({ strings: [], sheetData: '<row r="1"><c r="A1"><v>1</v></c></row><row r="2"><c' });
    expect(codeOf(() => [...(openWorkbookRows(cut)[0]?.rows() ?? [])])).toBe("invalid_spreadsheet");
  });
});

/** Rewrites what the central directory declares of one part's inflated size. */
function declareSize(bytes: Uint8Array, part: string, size: number): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  for (let at = 0; at + 46 <= out.byteLength; at++) {
    if (view.getUint32(at, true) === 0x02014b50) {
      const nameLength = view.getUint16(at + 28, true);
      if (new TextDecoder().decode(out.subarray(at + 46, at + 46 + nameLength)) === part) {
        view.setUint32(at + 24, size, true);
        return out;
      }
    }
  }
  throw new Error(`no part ${part}`);
}

const HEADER = ["No. KK", "Blok", "No. Rumah", "NIK", "Nama", "Hubungan", "Jenis Kelamin", "Tanggal Lahir"];

describe("the registry import of a workbook Excel saved", () => {
  it("checks each row as read, reports Excel's row numbers past blank rows, and writes the clean file", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const strings = [...HEADER, "A", "kepala_keluarga", "istri", "L", "P", "Rina", "Dodi"];
    const s = (text: string) => `t="s"><v>${strings.indexOf(text)}</v>`;
    const member = (r: number, nik: string, name: string, rel: string, sex: string, serial: number) =>
      `<row r="${r}"><c r="A${r}"><v>3204020101990001</v></c><c r="B${r}" ${s("A")}</c><c r="C${r}"><v>7</v></c><c r="D${r}"><v>${nik}</v></c><c r="E${r}" ${s(name)}</c><c r="F${r}" ${s(rel)}</c><c r="G${r}" ${s(sex)}</c><c r="H${r}" s="2"><v>${serial}</v></c></row>`;
    const headerRow = `<row r="1">${HEADER.map((h, i) => `<c r="${String.fromCharCode(65 + i)}1" ${s(h)}</c>`).join("")}</row>`;
    // 29295 is 1980-03-15 (the NIK's birth date); 30184 is 1982-08-21. Row 9's NIK has day 32.
    const good = member(2, "3204021503800001", "Dodi", "kepala_keluarga", "L", 29295);
    const wife = (nik: string) => member(9, nik, "Rina", "istri", "P", 30184);
    const bad = excelBook({ strings, sheetData: headerRow + good + wife("3204027208820001") });
    const form = (bytes: Uint8Array) => {
      const f = new FormData();
      f.set("file", new File([bytes], "warga.xlsx"));
      return f;
    };
    const report = await callJson<{
      rows: number;
      written: boolean;
      errors: { row: number; field: string }[];
    }>("/api/kependudukan/import?dryRun=false", { token: sek.token, body: form(bad) });
    expect(report.body).toMatchObject({ rows: 8, written: false });
    expect(report.body.errors.length).toBeGreaterThan(0);
    expect(report.body.errors.map((e) => `${e.row} ${e.field}`)).toEqual(
      report.body.errors.map(() => "9 nik"),
    );
    const clean = excelBook({ strings, sheetData: headerRow + good + wife("3204026108820001") });
    const written = await callJson("/api/kependudukan/import?dryRun=false", {
      token: sek.token,
      body: form(clean),
    });
    expect(written.body).toMatchObject({ ok: true, written: true, families: 1, members: 2, rows: 8 });
    const card = await callJson<{ items: { headName: string }[] }>("/api/kependudukan/kk?q=Dodi", {
      token: sek.token,
    });
    expect(card.body.items).toEqual([expect.objectContaining({ headName: "Dodi" })]);
    // A workbook whose Anggota sheet has only its header is refused, and nothing was written by it.
    const empty = excelBook({ strings, sheetData: headerRow });
    expectProblem(
      await callJson("/api/kependudukan/import?dryRun=true", { token: sek.token, body: form(empty) }),
      400,
      "invalid_spreadsheet",
    );
  });
});
