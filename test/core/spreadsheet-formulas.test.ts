import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { parseCsv, streamWorkbook, toCsv, writeWorkbook } from "../../src/platform/spreadsheets";
import { looksLikeFormula } from "../../src/platform/spreadsheets/cells";

/**
 * Issue 31 ("Also"): a value whose formula sign comes after leading whitespace or a control character
 * ("\t=…", " =…", "\n+…") passed the formula check, which looked before a spreadsheet's own trimming.
 */
const HOSTILE = [
  '\t=HYPERLINK("http://x.example","klik")',
  " =1+1",
  "\r\n@SUM(A1)",
  "\n+cmd|' /C calc'!A0",
  "  -2+3",
  "\u00a0=1",
  "\u200b=1",
];
const HARMLESS = ["+62812345678", "-5000", " Budi Santoso", "Siti", "Jl. Mawar - Blok C"];

async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function* pagesOf<T>(...pages: T[][]): AsyncGenerator<T[]> {
  for (const page of pages) {
    yield page;
  }
}

const textOf = (bytes: Uint8Array, part: string) => new TextDecoder().decode(unzipSync(bytes)[part]);

/** The `<xf>` elements of cellXfs, in index order (a cell's `s` attribute indexes them). */
function cellXfs(stylesXml: string): string[] {
  const inner = /<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/.exec(stylesXml)?.[1] ?? "";
  return inner.match(/<xf\b[^>]*\/?>/g) ?? [];
}

/** The style of each cell of row 2, by column letter. */
function rowStyles(sheetXml: string, row: number): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const m of sheetXml.matchAll(new RegExp(`<c r="([A-Z]+)${row}"([^>]*)>`, "g"))) {
    out[m[1] ?? ""] = /\bs="(\d+)"/.exec(m[2] ?? "")?.[1] ?? null;
  }
  return out;
}

describe("formula injection after leading whitespace or control characters", () => {
  it("marks every hostile value, and leaves phone numbers, amounts and names alone", () => {
    expect(HOSTILE.filter((v) => !looksLikeFormula(v))).toEqual([]);
    expect(HARMLESS.filter((v) => looksLikeFormula(v))).toEqual([]);
  });

  it("CSV: every hostile cell gets the apostrophe in front, the harmless ones are unchanged", () => {
    const [, row] = parseCsv(
      toCsv(
        [...HOSTILE, ...HARMLESS].map((_, i) => `k${i}`),
        [[...HOSTILE, ...HARMLESS]],
      ),
    );
    const cells = row ?? [];
    for (const [i, value] of HOSTILE.entries()) {
      // A quoted field keeps its whitespace; an unquoted one is trimmed by the reader, after the apostrophe.
      expect(cells[i]?.startsWith("'")).toBe(true);
      expect(cells[i]?.slice(1).trim()).toBe(value.trim());
    }
    expect(cells.slice(HOSTILE.length)).toEqual([
      "+62812345678",
      "-5000",
      "Budi Santoso",
      "Siti",
      "Jl. Mawar - Blok C",
    ]);
  });

  it("streamed .xlsx: hostile cells are text cells in the Text format with a quote prefix, never formulas", async () => {
    const values = [...HOSTILE, ...HARMLESS];
    const bytes = await bytesOf(
      streamWorkbook([
        { name: "Anggota", header: values.map((_, i) => `k${i}`), pages: () => pagesOf([values]) },
      ]),
    );
    const sheet = textOf(bytes, "xl/worksheets/sheet1.xml");
    expect(sheet).not.toContain("<f>");
    const xfs = cellXfs(textOf(bytes, "xl/styles.xml"));
    const styles = Object.values(rowStyles(sheet, 2));
    expect(styles).toHaveLength(values.length);
    for (const [i, style] of styles.entries()) {
      const xf = style === null ? "" : (xfs[Number(style)] ?? "");
      if (i < HOSTILE.length) {
        expect(xf).toContain('numFmtId="49"');
        expect(xf).toContain('quotePrefix="1"');
      } else {
        expect(style).toBeNull();
      }
    }
  });

  it("written .xlsx (SheetJS): hostile cells carry the Text format (numFmtId 49), harmless ones do not", () => {
    const values = [...HOSTILE, ...HARMLESS];
    const bytes = writeWorkbook([{ name: "Laporan", header: values.map((_, i) => `k${i}`), rows: [values] }]);
    const sheet = textOf(bytes, "xl/worksheets/sheet1.xml");
    expect(sheet).not.toContain("<f>");
    const xfs = cellXfs(textOf(bytes, "xl/styles.xml"));
    const styles = Object.values(rowStyles(sheet, 2));
    expect(styles).toHaveLength(values.length);
    for (const [i, style] of styles.entries()) {
      const xf = style === null ? "" : (xfs[Number(style)] ?? "");
      expect(xf.includes('numFmtId="49"')).toBe(i < HOSTILE.length);
    }
  });
});
