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
} from "../../src/core/spreadsheet";
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
