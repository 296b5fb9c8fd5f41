import { describe, expect, it } from "vitest";
import { hasUnsafeText, Line, Paragraph } from "../../src/core/schemas";

/** Issue 12, fix 6: the field primitives every module's one-line and multi-line text goes through. */

describe("hasUnsafeText", () => {
  it("flags C0 controls, DEL, C1 controls and bidi overrides and isolates", () => {
    for (const c of [
      "\u0000",
      "\u0007",
      "\u0008",
      "\u000b",
      "\u000c",
      "\u001b",
      "\u001f",
      "\u007f",
      "\u0085",
      "\u009f",
    ]) {
      expect(hasUnsafeText(`a${c}b`), JSON.stringify(c)).toBe(true);
    }
    for (const c of [
      "\u202a",
      "\u202b",
      "\u202c",
      "\u202d",
      "\u202e",
      "\u2066",
      "\u2067",
      "\u2068",
      "\u2069",
    ]) {
      expect(hasUnsafeText(`a${c}b`), JSON.stringify(c)).toBe(true);
    }
  });

  it("leaves line breaks, tabs and ordinary Unicode alone", () => {
    for (const text of ["a\nb", "a\r\nb", "a\tb", "Jum'at — Pak Andrés", "Ñandú 😀", "\u00a0", "\u200d"]) {
      expect(hasUnsafeText(text), JSON.stringify(text)).toBe(false);
    }
  });
});

describe("Line", () => {
  const line = Line(10, 2);

  it("trims, then applies its bounds", () => {
    expect(line.parse("  Budi  ")).toBe("Budi");
    expect(line.safeParse(" B ").success).toBe(false);
    expect(line.safeParse("x".repeat(11)).success).toBe(false);
  });

  it("refuses control characters and every line break, tab included", () => {
    for (const text of [
      "Bu\u0000di",
      "\u001b[31mBudi",
      "Bu\u007fdi",
      "Bu\u202edi",
      "Bu\ndi",
      "Bu\rdi",
      "Bu\tdi",
    ]) {
      expect(line.safeParse(text).success, JSON.stringify(text)).toBe(false);
    }
  });

  it("defaults to at least one character", () => {
    expect(Line(5).safeParse("   ").success).toBe(false);
    expect(Line(5, 0).parse("   ")).toBe("");
  });
});

describe("Paragraph", () => {
  const paragraph = Paragraph(20, 3);

  it("keeps line breaks, turning CRLF and CR into LF, and trims the ends", () => {
    expect(paragraph.parse("  satu\r\ndua\rtiga\n ")).toBe("satu\ndua\ntiga");
  });

  it("refuses other control characters", () => {
    for (const text of ["sa\u0000tu", "\u001b[31msatu", "sa\u007ftu", "sa\u202etu"]) {
      expect(paragraph.safeParse(text).success, JSON.stringify(text)).toBe(false);
    }
  });

  it("checks its bounds after normalising", () => {
    expect(paragraph.safeParse("  ab  ").success).toBe(false);
    expect(paragraph.safeParse(`${"x".repeat(19)}\r\n`).success).toBe(true);
    expect(paragraph.safeParse("x".repeat(21)).success).toBe(false);
  });
});
