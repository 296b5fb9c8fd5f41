/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import { extractReply } from "../src/parse";
import { type CorpusCase, parseCorpus, scoreCase, summarise } from "./corpus-cases";

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

  it("holds at least 200 cases with unique names", () => {
    expect(all.length).toBeGreaterThanOrEqual(200);
    expect(new Set(all.map((c) => c.name)).size).toBe(all.length);
  });

  for (const c of all) {
    it(`${c.file}: ${c.name}`, () => {
      const actual = extract(c);
      const score = scoreCase(c.expected, actual, c.sender);
      // Nothing the sender wrote may go missing, whatever else happens.
      expect(score.senderLost).toEqual([]);
      expect(score.missing).toEqual([]);
      expect({ exact: score.exact, actual }).toEqual({ exact: true, actual: expect.any(String) });
    });
  }

  it("reports the score: exact, kept with at most two extra lines, and sender text lost", () => {
    const summary = summarise(all.map((c) => scoreCase(c.expected, extract(c), c.sender)));
    const pct = (n: number) => `${((100 * n) / summary.cases).toFixed(1)}%`;
    console.info(
      `reply corpus: ${summary.cases} cases, exact ${pct(summary.exact)}, kept≤2 ${pct(summary.keptWithin2)}, ` +
        `sender text lost in ${summary.senderLost} (${pct(summary.senderLost)})`,
    );
    expect(summary.senderLost).toBe(0);
  });
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

  it("reads the corpus format, HTML flag and sender section included", () => {
    expect(
      parseCorpus(
        "=== a html\n<p>x</p>\n--- expected\nx\n=== b\ny\n--- expected\n" +
          "=== c\nSaya\n---- Forwarded message ----\nF\n--- expected\nSaya\nF\n--- sender\nSaya\n",
      ),
    ).toEqual([
      { name: "a", html: true, input: "<p>x</p>", expected: "x", sender: "x" },
      { name: "b", html: false, input: "y", expected: "", sender: "" },
      {
        name: "c",
        html: false,
        input: "Saya\n---- Forwarded message ----\nF",
        expected: "Saya\nF",
        sender: "Saya",
      },
    ]);
  });

  it("counts the sender's lines lost apart from other expected lines", () => {
    // A forward's body dropped: not exact, but the sender's own line is kept.
    expect(scoreCase("Saya\nF", "Saya", "Saya")).toMatchObject({ keptAll: false, senderLost: [] });
    expect(scoreCase("Saya\nF", "F", "Saya")).toMatchObject({ senderLost: ["Saya"] });
    expect(summarise([scoreCase("a", ""), scoreCase("a", "a")])).toMatchObject({ cases: 2, senderLost: 1 });
  });
});
