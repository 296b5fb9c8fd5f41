import fc from "fast-check";
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { DomainError } from "../../src/core/errors";
import {
  parseCsv,
  readWorkbook,
  streamCsv,
  streamWorkbook,
  toCsv,
  writeWorkbook,
} from "../../src/platform/spreadsheets";
import type { Column } from "../../src/platform/spreadsheets/cells";
import { codeOf } from "../helpers/domain-errors";

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

const identity = (header: string): Column => ({ header, kind: "identity" });
const date = (header: string): Column => ({ header, kind: "date" });

describe("cell kinds declared with the column (issue 49): identity numbers as text, dates as dates", () => {
  const columns = [identity("NIK"), identity("WhatsApp"), date("Tanggal Lahir"), "Nama", "Jumlah"];

  it("CSV: an identity number is quoted behind a tab, a date is YYYY-MM-DD, others are as before", () => {
    const text = toCsv(columns, [
      ["3201010101010001", "081234567890", "1985-03-15", "Siti", 3],
      [3201010101010, "+62 812-3456-7890", "2026-04-09T18:30:00.000Z", "0812", null],
    ]);
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("\uFEFFNIK,WhatsApp,Tanggal Lahir,Nama,Jumlah");
    expect(lines[1]).toBe('"\t3201010101010001","\t081234567890",1985-03-15,Siti,3');
    // A number given for an identity column is written as its digits; an instant as its Jakarta day.
    expect(lines[2]).toBe('"\t3201010101010","\t+62 812-3456-7890",2026-04-10,0812,');
    expect(parseCsv(text).slice(1)).toEqual([
      ["3201010101010001", "081234567890", "1985-03-15", "Siti", "3"],
      ["3201010101010", "+62 812-3456-7890", "2026-04-10", "0812"],
    ]);
  });

  it("CSV: the marker never stands before a formula; a hostile value in an identity column gets the apostrophe", () => {
    const hostile = ["=1+1", '\t=HYPERLINK("x")', "+62812|cmd", "@SUM(A1)", " +=1"];
    const text = toCsv(
      [identity("NIK")],
      hostile.map((v) => [v]),
    );
    const cells = parseCsv(text)
      .slice(1)
      .map((row) => row[0] ?? "");
    for (const [i, cell] of cells.entries()) {
      expect(cell.startsWith("'"), hostile[i]).toBe(true);
    }
    expect(text).not.toMatch(/"\t[^\d+]/);
  });

  it("CSV: any 16-digit number survives the round trip as text, marked, whole", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{16}$/), (nik) => {
        const text = toCsv([identity("NIK"), "Nama"], [[nik, "x"]]);
        expect(text.split("\r\n")[1]).toBe(`"\t${nik}",x`);
        expect(parseCsv(text)[1]).toEqual([nik, "x"]);
      }),
      { numRuns: 300 },
    );
  });

  it("reads a marked cell back as written by hand or by another program, and leaves other tabs alone", () => {
    expect(parseCsv('NIK;Nama\n"\t3201010101010001";"\tSiti"\n\t3201010101010002;x')).toEqual([
      ["NIK", "Nama"],
      ["3201010101010001", "\tSiti"],
      ["3201010101010002", "x"],
    ]);
  });

  it("xlsx stays as it was: identity numbers are text cells without any marker, dates are YYYY-MM-DD text", async () => {
    const rows = [["3201010101010001", "081234567890", "1985-03-15", "Siti", 3] as const];
    const streamed = await bytesOf(
      streamWorkbook([{ name: "Anggota", header: columns, pages: () => pagesOf([...rows]) }]),
    );
    const sheet = new TextDecoder().decode(unzipSync(streamed)["xl/worksheets/sheet1.xml"]);
    expect(sheet).not.toContain("\t");
    expect(sheet).toContain('<c r="A2" t="inlineStr"><is><t>3201010101010001</t></is></c>');
    const written = writeWorkbook([
      { name: "Anggota", header: columns, rows: [[3201010101010, "0812", "1985-03-15"]] },
    ]);
    for (const bytes of [streamed, written]) {
      const [anggota] = readWorkbook(bytes);
      expect(anggota?.rows[0]).toEqual(["NIK", "WhatsApp", "Tanggal Lahir", "Nama", "Jumlah"]);
    }
    expect(readWorkbook(streamed)[0]?.rows[1]).toEqual([
      "3201010101010001",
      "081234567890",
      "1985-03-15",
      "Siti",
      "3",
    ]);
    expect(readWorkbook(written)[0]?.rows[1]).toEqual(["3201010101010", "0812", "1985-03-15"]);
    const writtenXml = new TextDecoder().decode(unzipSync(written)["xl/worksheets/sheet1.xml"]);
    expect(writtenXml).toMatch(/<c r="A2"[^>]*t="(s|str|inlineStr)"/);
  });
});

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function* pagesOf<T>(...pages: T[][]): AsyncGenerator<T[]> {
  for (const page of pages) {
    yield page;
  }
}

describe("streamed spreadsheets", () => {
  it("streams a workbook page by page that reads back cell for cell: text stays text, numbers, empty cells, XML-special and control characters, a bold frozen header", async () => {
    const read: string[] = [];
    const bytes = await bytesOf(
      streamWorkbook([
        {
          name: "KK",
          header: ["No. KK", "Nama", "Jumlah"],
          widths: [20, 28, 8],
          pages: () => {
            read.push("KK");
            return pagesOf(
              [
                ["3201234567890001", 'Siti <Rahayu> & "Co"', 4],
                ["0012345678901234", " spasi di depan", 0],
              ],
              [["3201234567890002", "Budi\u0001 O'Neil", null, -6.914]],
            );
          },
        },
        {
          name: "Kosong",
          header: ["A", "B"],
          pages: () => {
            read.push("Kosong");
            return pagesOf();
          },
        },
      ]),
    );
    expect(read).toEqual(["KK", "Kosong"]);
    expect(bytes[0]).toBe(0x50);
    const sheets = readWorkbook(bytes);
    expect(sheets.map((s) => s.name)).toEqual(["KK", "Kosong"]);
    expect(sheets[0]?.rows).toEqual([
      ["No. KK", "Nama", "Jumlah"],
      ["3201234567890001", 'Siti <Rahayu> & "Co"', "4"],
      ["0012345678901234", "spasi di depan", "0"],
      ["3201234567890002", "Budi O'Neil", null, "-6.914"],
    ]);
    expect(sheets[1]?.rows).toEqual([["A", "B"]]);
    // The parts a spreadsheet program looks for: the header row styled bold and frozen, widths set.
    const sheetXml = new TextDecoder().decode(unzipSync(bytes)["xl/worksheets/sheet1.xml"]);
    expect(sheetXml).toContain('<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>');
    expect(sheetXml).toContain('<col min="2" max="2" width="28" customWidth="1"/>');
    expect(sheetXml).toContain('<c r="A1" s="1" t="inlineStr"><is><t>No. KK</t></is></c>');
  });

  it("streams 18,000 rows in pages without holding them, and a CSV as the BOM and header, then one chunk a page", async () => {
    let pagesRead = 0;
    async function* many(): AsyncGenerator<string[][]> {
      for (let p = 0; p < 18; p++) {
        pagesRead++;
        yield Array.from({ length: 1000 }, (_, i) => [
          String(3201000000000000 + p * 1000 + i),
          `Warga ${p}-${i}`,
        ]);
      }
    }
    const stream = streamWorkbook([{ name: "Anggota", header: ["NIK", "Nama"], pages: many }]);
    const reader = stream.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(pagesRead).toBeLessThan(18);
    const chunks = [first.value as Uint8Array];
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        break;
      }
      chunks.push(next.value);
    }
    const bytes = await bytesOf(new Blob(chunks).stream());
    const [sheet] = readWorkbook(bytes);
    expect(sheet?.rows.length).toBe(18_001);
    expect(sheet?.rows[18_000]).toEqual([String(3201000000000000 + 17_999), "Warga 17-999"]);

    const csv = streamCsv(["NIK", "Nama"], pagesOf([["3201", "=cmd"]], [["3202", 'Siti "S"']]));
    const parts: string[] = [];
    const decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
    for await (const chunk of csv as unknown as AsyncIterable<Uint8Array>) {
      parts.push(decoder.decode(chunk));
    }
    expect(parts).toEqual(["\uFEFFNIK,Nama\r\n", "3201,'=cmd\r\n", '3202,"Siti ""S"""\r\n']);
    expect(parts.join("")).toBe(
      toCsv(
        ["NIK", "Nama"],
        [
          ["3201", "=cmd"],
          ["3202", 'Siti "S"'],
        ],
      ),
    );
  });
});
