import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * ADRs cite tests that exist (issue 48 item 7). The convention, as the ADRs already write it: a test file
 * in backticks (`test/core/tenancy.test.ts`, or a bare `voting.test.ts` when the name is unique enough),
 * then, in the same sentence, the titles of its tests in double quotes, in parentheses or after the
 * path: `test/x.test.ts` ("refuses …", "answers …"). A title may be shortened with `…`: its parts must
 * appear in that order in one title. A quoted phrase that is not a test title belongs in another
 * sentence than a test file's, or in single quotes.
 *
 * This file reads every ADR, finds each cited file and title, and checks the file exists and one of its
 * `describe`/`it`/`test` titles (or a file of that name, for a bare name) matches the quote.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
const TEST_FILE = /\.test\.(?:ts|tsx|mjs|js)$/;

function testFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name.startsWith(".")) {
      continue;
    }
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      testFiles(path, out);
    } else if (TEST_FILE.test(name)) {
      out.push(relative(root, path).replaceAll("\\", "/"));
    }
  }
  return out;
}

const TITLE =
  /\b(?:it|test|describe)(?:\.\w+)*\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`)/g;

/** The titles a test file gives its suites and tests, as written (escapes undone, spaces collapsed). */
function titlesOf(source) {
  return [...source.matchAll(TITLE)].map((m) => normal(m[1] ?? m[2] ?? m[3] ?? ""));
}

const normal = (text) => text.replace(/\\(.)/g, "$1").replace(/\s+/g, " ").trim();

const REF = /`([^`\s]*\.test\.(?:ts|tsx|mjs|js))`/g;
const QUOTE = /["“]([^"”]+)["”]/g;

/**
 * Every citation in an ADR's text: the file as written and each title quoted after it in the same
 * sentence. A paragraph or list item is read as one line; a sentence ends at a full stop outside
 * quotes, parentheses and code spans followed by a space, or at the next test file.
 */
function citations(markdown) {
  const found = [];
  for (const paragraph of markdown.split(/\n\s*\n|\n(?=\s*(?:[-*]|\d+\.) )/)) {
    const flat = paragraph.replace(/\s*\n\s*/g, " ");
    const refs = [...flat.matchAll(REF)];
    for (const [i, ref] of refs.entries()) {
      const start = (ref.index ?? 0) + ref[0].length;
      const end = refs[i + 1]?.index ?? flat.length;
      const segment = flat.slice(start, end);
      const sentence = sentenceOf(segment);
      // Quotes inside code spans (`x = "y"`) are code, not titles: found in the masked text, read in the real one.
      const titles = [...sentence.matchAll(QUOTE)].map((m) =>
        normal(segment.slice((m.index ?? 0) + 1, (m.index ?? 0) + m[0].length - 1)),
      );
      found.push({ file: ref[1] ?? "", titles });
    }
  }
  return found;
}

/** The first sentence of `text`, its code spans masked (same length, nothing that looks like a quote). */
function sentenceOf(text) {
  const plain = text.replace(/`[^`]*`/g, (span) => "x".repeat(span.length));
  let quoted = false;
  let depth = 0;
  for (let i = 0; i < plain.length; i++) {
    const ch = plain[i];
    if (ch === '"' || ch === "“" || ch === "”") {
      quoted = ch === "“" ? true : ch === "”" ? false : !quoted;
    } else if (!quoted && ch === "(") {
      depth++;
    } else if (!quoted && ch === ")") {
      depth = Math.max(0, depth - 1);
    } else if (!quoted && depth === 0 && ch === "." && (i + 1 === plain.length || plain[i + 1] === " ")) {
      return plain.slice(0, i);
    }
  }
  return plain;
}

/** Does `quote` name one of `titles`? Its `…`-separated parts appear in order in one title. */
function names(quote, titles) {
  const parts = quote
    .split(/\s*…\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  return titles.some((title) => {
    let at = 0;
    for (const part of parts) {
      const k = title.indexOf(part, at);
      if (k < 0) {
        return false;
      }
      at = k + part.length;
    }
    return true;
  });
}

const files = ["test", "web", "workers"].flatMap((dir) => testFiles(join(root, dir)));
const titlesByFile = new Map(files.map((f) => [f, titlesOf(readFileSync(join(root, f), "utf8"))]));
const adrDir = join(root, "docs/adr");
const adrs = readdirSync(adrDir).filter((name) => name.endsWith(".md"));

/** The test files a citation's path names: the path itself, or every file ending in a bare name. */
const filesNamed = (cited) => files.filter((f) => f === cited || f.endsWith(`/${cited}`));

describe("the citation reader", () => {
  it("takes the titles quoted after a test file in its sentence, and stops at the next sentence or file", () => {
    const text = [
      'Held by `test/core/a.test.ts` ("refuses x", "answers …: y") and `b.test.ts` "keeps z". The page',
      'shows "not found" then. `c.test.ts` ("one (with parens). still one"; "two").',
      '- `d.test.ts` sets `x = "y"`. A list item, then "not a title".',
      '- the next item quotes "no title either".',
    ].join("\n");
    expect(citations(text)).toEqual([
      { file: "test/core/a.test.ts", titles: ["refuses x", "answers …: y"] },
      { file: "b.test.ts", titles: ["keeps z"] },
      { file: "c.test.ts", titles: ["one (with parens). still one", "two"] },
      { file: "d.test.ts", titles: [] },
    ]);
  });

  it("matches a shortened title by its parts in order, and refuses a title that is not there", () => {
    const titles = titlesOf(
      'describe("the slot", () => { it("the slot\'s owner is checked, then \\"kept\\"", () => {}); });',
    );
    expect(titles).toEqual(["the slot", 'the slot\'s owner is checked, then "kept"']);
    expect(names("the slot's owner …", titles)).toBe(true);
    expect(names("the slot's owner … kept", titles)).toBe(true);
    expect(names("kept … the slot's owner", titles)).toBe(false);
    expect(names("legacy hashes upgraded at sign-in", titles)).toBe(false);
  });
});

describe("ADRs cite tests that exist (issue 48 item 7)", () => {
  it("finds citations to check in the ADRs", () => {
    const count = adrs.flatMap((adr) => citations(readFileSync(join(adrDir, adr), "utf8"))).length;
    expect(count).toBeGreaterThan(50);
  });

  it.each(adrs)("%s: every cited test file exists and every quoted title names one of its tests", (adr) => {
    const problems = [];
    for (const { file, titles } of citations(readFileSync(join(adrDir, adr), "utf8"))) {
      const named = filesNamed(file);
      if (named.length === 0) {
        problems.push(`${file}: no such test file`);
        continue;
      }
      const known = named.flatMap((f) => titlesByFile.get(f) ?? []);
      for (const title of titles) {
        if (!names(title, known)) {
          problems.push(`${file}: no test titled "${title}"`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
