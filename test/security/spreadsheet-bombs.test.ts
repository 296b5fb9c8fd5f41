import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { readWorkbook, writeWorkbook, XLSX_LIMITS } from "../../src/platform/spreadsheets";
import { codeOf } from "../helpers/domain-errors";
import { callJson, createTenant, expectProblem } from "../helpers/harness";

/**
 * Issue 31, N8: an uploaded .xlsx is judged by its ZIP directory before anything inflates it, its
 * parts are inflated through a counter that stops at the cap whatever the directory claims, a workbook
 * without the needed sheets is refused before parsing, and only the sheets the reader uses are parsed.
 */

/** Rewrites what the central directory declares of one part's inflated size. */
function declareSize(bytes: Uint8Array, part: string, size: number): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  for (let at = 0; at + 46 <= out.byteLength; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) {
      continue;
    }
    const nameLength = view.getUint16(at + 28, true);
    const name = new TextDecoder().decode(out.subarray(at + 46, at + 46 + nameLength));
    if (name === part) {
      view.setUint32(at + 24, size, true);
      return out;
    }
  }
  throw new Error(`no part ${part}`);
}

const HEADER = ["No. KK", "Blok", "No. Rumah", "NIK", "Nama", "Hubungan", "Jenis Kelamin"];
const registry = () =>
  writeWorkbook([
    { name: "KK", header: ["No. KK"], rows: [["3201234567890001"]] },
    {
      name: "Anggota",
      header: HEADER,
      rows: [["3201234567890001", "A", "1", "3201234567890001", "Siti", "kepala", "P"]],
    },
  ]);

/** A workbook whose one sheet is `inflated` bytes of XML that compress to almost nothing. */
/** XML of just over the part cap that compresses to almost nothing (spaces are legal before the root). */
let big: Uint8Array | undefined;
function bigPart(): Uint8Array {
  big ??= new Uint8Array(XLSX_LIMITS.partBytes + 1024).fill(0x20);
  big.set(strToU8('<?xml version="1.0" encoding="UTF-8"?>'), 0);
  return big;
}

/** A workbook whose Anggota sheet is a bomb; built once. */
let bombBytes: Uint8Array | undefined;
function bomb(): Uint8Array {
  bombBytes ??= zipSync({ ...minimalParts(), "xl/worksheets/sheet2.xml": bigPart() }, { level: 1 });
  return bombBytes;
}

function minimalParts(): Record<string, Uint8Array> {
  const ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
  const rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
  return {
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>',
    ),
    "_rels/.rels": strToU8(
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    "xl/workbook.xml": strToU8(
      `<?xml version="1.0"?><workbook xmlns="${ns}" xmlns:r="${rel}"><sheets><sheet name="KK" sheetId="1" r:id="rId1"/><sheet name="Anggota" sheetId="2" r:id="rId2"/></sheets></workbook>`,
    ),
    "xl/_rels/workbook.xml.rels": strToU8(
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${rel}/worksheet" Target="worksheets/sheet2.xml"/></Relationships>`,
    ),
    "xl/worksheets/sheet1.xml": strToU8(
      `<?xml version="1.0"?><worksheet xmlns="${ns}"><sheetData/></worksheet>`,
    ),
  };
}

describe("xlsx bombs", () => {
  it("refuses a part the directory declares past the cap, before inflating anything", () => {
    const bytes = declareSize(registry(), "xl/worksheets/sheet2.xml", XLSX_LIMITS.partBytes + 1);
    expect(codeOf(() => readWorkbook(bytes))).toBe("spreadsheet_too_large");
  });

  it("refuses a workbook whose parts together are declared past the total cap", () => {
    let bytes = registry();
    bytes = declareSize(bytes, "xl/worksheets/sheet1.xml", XLSX_LIMITS.partBytes - 1);
    bytes = declareSize(bytes, "xl/worksheets/sheet2.xml", XLSX_LIMITS.partBytes - 1);
    bytes = declareSize(bytes, "xl/styles.xml", XLSX_LIMITS.totalBytes - 2 * XLSX_LIMITS.partBytes + 10);
    expect(codeOf(() => readWorkbook(bytes))).toBe("spreadsheet_too_large");
  });

  it("stops inflating a part whose directory entry lies about its size", () => {
    const real = bomb();
    expect(real.byteLength).toBeLessThan(100 * 1024);
    const lying = declareSize(real, "xl/worksheets/sheet2.xml", 1000);
    const started = performance.now();
    expect(codeOf(() => readWorkbook(lying))).toBe("spreadsheet_too_large");
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("refuses a workbook without the needed sheet before parsing, naming the sheets it has", () => {
    const bytes = writeWorkbook([{ name: "Sheet1", header: ["a"], rows: [] }]);
    expect(codeOf(() => readWorkbook(bytes, { required: ["Anggota"] }))).toBe("spreadsheet_sheet_missing");
  });

  it("inflates and parses only the sheets the reader uses", () => {
    // KK (sheet1) is a bomb whose directory lies; a reader of Anggota alone never inflates it.
    const parts = minimalParts();
    parts["xl/worksheets/sheet1.xml"] = bigPart();
    parts["xl/worksheets/sheet2.xml"] = strToU8(
      '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>NIK</t></is></c></row></sheetData></worksheet>',
    );
    const bytes = declareSize(zipSync(parts, { level: 1 }), "xl/worksheets/sheet1.xml", 10);
    expect(readWorkbook(bytes, { required: ["Anggota"] })).toEqual([{ name: "Anggota", rows: [["NIK"]] }]);
    expect(codeOf(() => readWorkbook(bytes))).toBe("spreadsheet_too_large");
  });

  it("answers a bomb uploaded to the registry import with 400, not a crash", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const form = new FormData();
    form.set("file", new File([declareSize(bomb(), "xl/worksheets/sheet2.xml", 10)], "bom.xlsx"));
    const res = await callJson("/api/kependudukan/import?dryRun=true", { token: sek.token, body: form });
    expectProblem(res, 400, "spreadsheet_too_large");
  });
});
