// The reply corpus (test/corpus/*.txt, format in its README) and how a result is scored against
// it. Shared by test/corpus.test.ts (each case a test) and bench/reply-corpus.mjs (the scores of
// every candidate stripper, run in workerd).

export type CorpusCase = { name: string; html: boolean; input: string; expected: string };

export type CaseScore = {
  /** Equal to the expected text after whitespace normalisation. */
  exact: boolean;
  /** Every expected line is kept, in order. */
  keptAll: boolean;
  /** Lines kept that the sender did not write in this reply. */
  extraLines: number;
  /** Expected lines missing: text the sender wrote that the stripper dropped. */
  missing: string[];
};

export function parseCorpus(text: string): CorpusCase[] {
  const cases: CorpusCase[] = [];
  for (const block of text.replace(/\r\n?/g, "\n").split(/^=== /m).slice(1)) {
    const newline = block.indexOf("\n");
    const [name = "", flag] = block.slice(0, newline).trim().split(/\s+/);
    const body = block.slice(newline + 1);
    const marker = body.search(/^--- expected$/m);
    if (marker < 0) {
      throw new Error(`corpus case ${name} has no "--- expected" line`);
    }
    cases.push({
      name,
      html: flag === "html",
      input: body.slice(0, marker).replace(/\n$/, ""),
      expected: body.slice(marker + "--- expected".length + 1).replace(/\n+$/, ""),
    });
  }
  return cases;
}

function lines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.replace(/[\s\u00a0\u202f]+/g, " ").trim())
    .filter((line) => line.length > 0);
}

export function scoreCase(expected: string, actual: string): CaseScore {
  const want = lines(expected);
  const got = lines(actual);
  // Line wrapping differs between converters, so "exact" compares the words, not the breaks.
  const exact = want.join(" ") === got.join(" ");
  const missing: string[] = [];
  let at = 0;
  const used = new Set<number>();
  for (const line of want) {
    let found = -1;
    for (let j = at; j < got.length; j++) {
      if ((got[j] ?? "").includes(line)) {
        found = j;
        break;
      }
    }
    if (found < 0) {
      missing.push(line);
    } else {
      used.add(found);
      at = found;
    }
  }
  const extraLines = got.filter((line, j) => !used.has(j) && !want.some((w) => w.includes(line))).length;
  return { exact, keptAll: missing.length === 0, extraLines, missing };
}

export type Summary = { cases: number; exact: number; keptWithin2: number; dropped: number };

export function summarise(scores: CaseScore[]): Summary {
  return {
    cases: scores.length,
    exact: scores.filter((s) => s.exact).length,
    keptWithin2: scores.filter((s) => s.keptAll && s.extraLines <= 2).length,
    dropped: scores.filter((s) => !s.keptAll).length,
  };
}
