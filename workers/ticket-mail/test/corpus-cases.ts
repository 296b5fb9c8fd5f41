// The reply corpus (test/corpus/*.txt, format in its README) and how a result is scored against
// it: exact, kept (lenient), and whether any line the sender wrote was lost. Shared by
// test/corpus.test.ts (each case a test) and bench/reply-corpus.mjs (the scores of every
// candidate stripper, run in workerd).

export type CorpusCase = {
  name: string;
  html: boolean;
  input: string;
  /** What the stripper should keep. */
  expected: string;
  /** What the sender wrote in this reply: the expected text, unless the case keeps more (a forward). */
  sender: string;
};

export type CaseScore = {
  /** Equal to the expected text after whitespace normalisation. */
  exact: boolean;
  /** Every expected line is kept, in order. */
  keptAll: boolean;
  /** Lines kept that the sender did not write in this reply. */
  extraLines: number;
  /** Expected lines missing. */
  missing: string[];
  /** Lines the sender wrote in this reply that the stripper dropped: the worst error. */
  senderLost: string[];
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
    const rest = body.slice(marker + "--- expected".length + 1);
    const senderMarker = rest.search(/^--- sender$/m);
    const expected = (senderMarker < 0 ? rest : rest.slice(0, senderMarker)).replace(/\n+$/, "");
    const sender =
      senderMarker < 0 ? expected : rest.slice(senderMarker + "--- sender".length + 1).replace(/\n+$/, "");
    cases.push({
      name,
      html: flag === "html",
      input: body.slice(0, marker).replace(/\n$/, ""),
      expected,
      sender,
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

/** The lines of `want` found in `got` in order (each inside some kept line), and those missing. */
function match(want: string[], got: string[]): { used: Set<number>; missing: string[] } {
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
  return { used, missing };
}

export function scoreCase(expected: string, actual: string, sender: string = expected): CaseScore {
  const want = lines(expected);
  const got = lines(actual);
  // Line wrapping differs between converters, so "exact" compares the words, not the breaks.
  const exact = want.join(" ") === got.join(" ");
  const { used, missing } = match(want, got);
  const extraLines = got.filter((line, j) => !used.has(j) && !want.some((w) => w.includes(line))).length;
  const senderLost = match(lines(sender), got).missing;
  return { exact, keptAll: missing.length === 0, extraLines, missing, senderLost };
}

export type Summary = {
  cases: number;
  exact: number;
  keptWithin2: number;
  /** Cases with an expected line missing. */
  dropped: number;
  /** Cases where a line the sender wrote went missing (goal: zero). */
  senderLost: number;
};

export function summarise(scores: CaseScore[]): Summary {
  return {
    cases: scores.length,
    exact: scores.filter((s) => s.exact).length,
    keptWithin2: scores.filter((s) => s.keptAll && s.extraLines <= 2).length,
    dropped: scores.filter((s) => !s.keptAll).length,
    senderLost: scores.filter((s) => s.senderLost.length > 0).length,
  };
}
