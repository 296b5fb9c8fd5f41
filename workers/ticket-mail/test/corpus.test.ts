/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { extractReply } from "../src/parse";
import { type CorpusCase, parseCorpus, scoreCase } from "./corpus-cases";

// Each case of test/corpus/*.txt runs through the Worker's own extraction (extractReply, the
// path a delivered message takes) as a text/plain or an HTML-only message.
const files = import.meta.glob<string>("./corpus/*.txt", { query: "?raw", import: "default", eager: true });

function extract(c: CorpusCase): string {
  const email = c.html ? { html: c.input } : { text: c.input };
  return extractReply(email as Parameters<typeof extractReply>[0]).text;
}

describe("reply corpus", () => {
  const all = Object.entries(files).flatMap(([file, text]) =>
    parseCorpus(text).map((c) => ({ file: file.replace("./corpus/", ""), ...c })),
  );

  it("holds at least 60 cases with unique names", () => {
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect(new Set(all.map((c) => c.name)).size).toBe(all.length);
  });

  for (const c of all) {
    it(`${c.file}: ${c.name}`, () => {
      const actual = extract(c);
      const score = scoreCase(c.expected, actual);
      // Nothing the sender wrote above the history may go missing, whatever else happens.
      expect(score.missing).toEqual([]);
      expect({ exact: score.exact, actual }).toEqual({ exact: true, actual: expect.any(String) });
    });
  }
});

describe("corpus scoring", () => {
  it("tells exact, kept-with-extra and dropped results apart", () => {
    expect(scoreCase("Halo\n\nPak", "Halo\nPak  ")).toMatchObject({
      exact: true,
      keptAll: true,
      extraLines: 0,
    });
    expect(scoreCase("Halo", "Halo\n> kutipan\nlagi")).toMatchObject({
      exact: false,
      keptAll: true,
      extraLines: 2,
    });
    expect(scoreCase("Halo\nPak", "Halo")).toMatchObject({ exact: false, keptAll: false, missing: ["Pak"] });
  });

  it("reads the corpus format, HTML flag included", () => {
    expect(parseCorpus("=== a html\n<p>x</p>\n--- expected\nx\n=== b\ny\n--- expected\n")).toEqual([
      { name: "a", html: true, input: "<p>x</p>", expected: "x" },
      { name: "b", html: false, input: "y", expected: "" },
    ]);
  });
});
