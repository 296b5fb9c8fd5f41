import { describe, expect, it } from "vitest";
import { DomainError } from "../../src/core/errors";
import { parseCsv, readWorkbook, toCsv, writeWorkbook } from "../../src/core/spreadsheet";

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? error.code : `not a domain error: ${String(error)}`;
  }
  return "resolved";
}

describe("spreadsheets (.xlsx)", () => {
  it("writes sheets that read back cell for cell, 16-digit numbers and leading zeros intact", () => {
    const bytes = writeWorkbook([
      {
        name: "KK",
        header: ["No. KK", "Nama", "Jumlah"],
        rows: [
          ["3201234567890001", "Siti Rahayu", 4],
          ["3201234567890002", 'Budi "Bud" O\'Neil, Jr.', 0],
        ],
      },
      {
        name: "Anggota",
        header: ["NIK", "HP", "Catatan"],
        rows: [["0012345678901234", "081234567890", null, 3201234567890001]],
      },
      { name: "Kosong", header: ["A"], rows: [] },
    ]);
    expect(bytes[0]).toBe(0x50);
    const sheets = readWorkbook(bytes);
    expect(sheets.map((s) => s.name)).toEqual(["KK", "Anggota", "Kosong"]);
    expect(sheets[0]?.rows).toEqual([
      ["No. KK", "Nama", "Jumlah"],
      ["3201234567890001", "Siti Rahayu", "4"],
      ["3201234567890002", 'Budi "Bud" O\'Neil, Jr.', "0"],
    ]);
    expect(sheets[1]?.rows).toEqual([
      ["NIK", "HP", "Catatan"],
      ["0012345678901234", "081234567890", null, "3201234567890001"],
    ]);
    expect(sheets[2]?.rows).toEqual([["A"]]);
  });

  it("answers invalid_spreadsheet for bytes that are not an .xlsx: text, an empty file, a ZIP of something else, a cut file", () => {
    const bytes = writeWorkbook([{ name: "KK", header: ["A"], rows: [["1"]] }]);
    const zipHeaderOverJunk = new Uint8Array([
      0x50,
      0x4b,
      0x03,
      0x04,
      ...new TextEncoder().encode("no zip here"),
    ]);
    for (const bad of [
      new TextEncoder().encode("NIK,Nama\n1,2\n"),
      new Uint8Array(0),
      zipHeaderOverJunk,
      bytes.slice(0, Math.floor(bytes.length / 2)),
    ]) {
      expect(codeOf(() => readWorkbook(bad))).toBe("invalid_spreadsheet");
    }
  });

  it("writes and reads 2,000 rows of 15 columns", () => {
    const rows = Array.from({ length: 2_000 }, (_, i) =>
      Array.from({ length: 15 }, (_, c) =>
        c === 0 ? String(3201000000000000 + i) : `kolom ${c} baris ${i}`,
      ),
    );
    const bytes = writeWorkbook([{ name: "Anggota", header: rows[0]?.map((_, c) => `K${c}`) ?? [], rows }]);
    const [sheet] = readWorkbook(bytes);
    expect(sheet?.rows.length).toBe(2_001);
    expect(sheet?.rows[2_000]?.[0]).toBe(String(3201000000000000 + 1_999));
  });
});

describe("CSV", () => {
  it("writes a BOM, CRLF lines, quotes what needs quoting, and reads itself back", () => {
    const text = toCsv(
      ["NIK", "Nama", "Alamat"],
      [
        ["3201234567890001", 'Siti "Ani" Rahayu', "Jl. Mawar 1,\nBlok A"],
        ["3201234567890002", "Budi", null],
      ],
    );
    expect(text.startsWith("\uFEFFNIK,Nama,Alamat\r\n")).toBe(true);
    expect(parseCsv(text)).toEqual([
      ["NIK", "Nama", "Alamat"],
      ["3201234567890001", 'Siti "Ani" Rahayu', "Jl. Mawar 1,\nBlok A"],
      ["3201234567890002", "Budi"],
    ]);
  });

  it("defuses cells Excel would run as formulas, and leaves signed numbers alone", () => {
    const text = toCsv(["a", "b", "c", "d"], [['=HYPERLINK("x")', "@SUM(A1)", "+62812", "-cmd|x"]]);
    const [, row] = parseCsv(text);
    expect(row).toEqual(['\'=HYPERLINK("x")', "'@SUM(A1)", "+62812", "'-cmd|x"]);
  });

  it("reads semicolon files as Excel saves them in an Indonesian locale, LF endings, no trailing newline", () => {
    expect(parseCsv("NIK;Nama\n3201234567890001;Siti, Rahayu\n\n")).toEqual([
      ["NIK", "Nama"],
      ["3201234567890001", "Siti, Rahayu"],
    ]);
    expect(parseCsv('a,b\r\n"x",')).toEqual([["a", "b"], ["x"]]);
  });

  it("refuses a quote that never closes", () => {
    expect(() => parseCsv('a,b\n"open,1\n')).toThrow(DomainError);
  });
});
