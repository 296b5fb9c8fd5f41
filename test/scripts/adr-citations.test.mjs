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
 *
 * A table-driven test (`it.each(table)("title %s", …)`, `describe.each`, `test.for`, the tagged
 * `it.each\`…\`` form) has a title TEMPLATE: an ADR quotes one of the titles it expands to, whole, or
 * shortened with `…` where text is left out (at the start and end too: a bare part of a templated title
 * could lie inside a placeholder's text and prove nothing). Each placeholder (`%s`, `%i`, `%d`, `%#`,
 * …, `$name`, `$a.b`) stands for any text. A template that is nothing but placeholders (`"%s"`: the
 * case's name is the title) would match any quote, so its expansions are taken to be the string
 * literals of its file, where such a table's names are written.
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

/** Where a table-driven suite or test starts: `it.each(` / `describe.each\`` / `test.concurrent.for(`. */
const TABLE = /\b(?:it|test|describe)(?:\.\w+)*\.(?:each|for)\s*([(`])/g;
const STRING_AT = /^\s*\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`)/;

/**
 * The title templates of a file's table-driven suites and tests: the string that follows the table
 * (`it.each([...])("title %s", …)`), the table skipped whatever it holds (nested brackets, strings,
 * template literals, comments).
 */
function templatesOf(source) {
  const found = [];
  for (const m of source.matchAll(TABLE)) {
    const open = (m.index ?? 0) + m[0].length - 1;
    const after = m[1] === "`" ? skipTemplate(source, open + 1) : skipCall(source, open + 1);
    const title = source.slice(after).match(STRING_AT);
    if (title) {
      found.push(normal(title[1] ?? title[2] ?? title[3] ?? ""));
    }
  }
  return found;
}

/** From just inside `(`, the index just past its matching `)`. */
function skipCall(source, from) {
  let depth = 1;
  let i = from;
  while (i < source.length && depth > 0) {
    const ch = source[i];
    if (ch === '"' || ch === "'") {
      i = skipQuoted(source, i + 1, ch);
    } else if (ch === "`") {
      i = skipTemplate(source, i + 1);
    } else if (source.startsWith("//", i)) {
      i = source.indexOf("\n", i) < 0 ? source.length : source.indexOf("\n", i);
    } else if (source.startsWith("/*", i)) {
      i = source.indexOf("*/", i) < 0 ? source.length : source.indexOf("*/", i) + 2;
    } else {
      depth += "([{".includes(ch) ? 1 : ")]}".includes(ch) ? -1 : 0;
      i++;
    }
  }
  return i;
}

/** From just inside a quote, the index just past the closing one. */
function skipQuoted(source, from, quote) {
  let i = from;
  while (i < source.length && source[i] !== quote) {
    i += source[i] === "\\" ? 2 : 1;
  }
  return i + 1;
}

/** From just inside a template literal, the index just past its closing backtick (`${…}` skipped). */
function skipTemplate(source, from) {
  let i = from;
  while (i < source.length && source[i] !== "`") {
    if (source[i] === "\\") {
      i += 2;
    } else if (source.startsWith("${", i)) {
      i = skipCall(source, i + 2);
    } else {
      i++;
    }
  }
  return i + 1;
}

/** A template's placeholders: vitest's printf-style ones and `$name` / `$a.b` / `$0` of object tables. */
const PLACEHOLDER = /%[sdifjoOc#$]|\$(?:[A-Za-z_][\w]*(?:\.\w+)*|\d+)/g;

/** A title or template as a glob: literal characters, and WILD for a placeholder (`%%` is one `%`). */
const WILD = Symbol("wild");
function globOf(template) {
  const out = [];
  for (const chunk of template.split(/(%%)/)) {
    if (chunk === "%%") {
      out.push("%");
      continue;
    }
    let at = 0;
    for (const m of chunk.matchAll(PLACEHOLDER)) {
      out.push(...chunk.slice(at, m.index), WILD);
      at = (m.index ?? 0) + m[0].length;
    }
    out.push(...chunk.slice(at));
  }
  return out;
}

/** A template with no letters outside its placeholders (`"%s"`, `"%s %s"`): its title is all table. */
const onlyPlaceholders = (template) => !/\p{L}/u.test(template.replaceAll("%%", "").replace(PLACEHOLDER, ""));

/** The string literals of a file (the names a table of cases writes), as titlesOf reads a title. */
const LITERAL = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'/g;
function literalsOf(source) {
  return [...source.matchAll(LITERAL)].map((m) => normal(m[1] ?? m[2] ?? ""));
}

/**
 * A test file's titles and title templates. A template that is all placeholders expands to the file's
 * string literals, which join its plain titles.
 */
function testNamesOf(source) {
  const all = templatesOf(source);
  const templates = all.filter((t) => !onlyPlaceholders(t));
  const titles = titlesOf(source).concat(all.length > templates.length ? literalsOf(source) : []);
  return { titles, templates };
}

/**
 * Can one string match both globs? `a` and `b` are arrays of characters and WILD (any run of text).
 * A WILD on either side may take characters (or WILDs) of the other; two literals must be equal.
 */
function globsMeet(a, b) {
  const memo = new Map();
  const meet = (i, j) => {
    const key = i * (b.length + 1) + j;
    if (memo.has(key)) {
      return memo.get(key);
    }
    let ok;
    if (i === a.length && j === b.length) {
      ok = true;
    } else if (a[i] === WILD) {
      ok = meet(i + 1, j) || (j < b.length && meet(i, j + 1));
    } else if (b[j] === WILD) {
      ok = meet(i, j + 1) || (i < a.length && meet(i + 1, j));
    } else {
      ok = i < a.length && j < b.length && a[i] === b[j] && meet(i + 1, j + 1);
    }
    memo.set(key, ok);
    return ok;
  };
  return meet(0, 0);
}

/**
 * A quote as a glob against a templated title: the whole title, its `…` standing for what is left out
 * (a leading or trailing `…` too).
 */
function quoteGlob(quote) {
  const parts = quote.trim().split(/\s*…\s*/);
  return parts.flatMap((part, i) => (i === 0 ? [...part] : [WILD, ...part]));
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

/**
 * Does `quote` name one of `titles`, or a title one of `templates` expands to? Its `…`-separated parts
 * appear in order in one title.
 */
function names(quote, titles, templates = []) {
  const glob = quoteGlob(quote);
  return plainNames(quote, titles) || templates.some((template) => globsMeet(glob, globOf(template)));
}

function plainNames(quote, titles) {
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
const titlesByFile = new Map(files.map((f) => [f, testNamesOf(readFileSync(join(root, f), "utf8"))]));
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

  it("reads the title templates of table-driven tests, whatever the table holds", () => {
    const source = [
      'describe.each(["/a", "/b(c)"])("posts to %s", (path) => {',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a test file's source text, read, never run
      '  it.each([[1, { name: "x)" }], [2, `y${f(")")}`]])("case %i: $name answers 200", () => {});',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a test file's source text, read, never run
      '  it.each`a | b ${1} | ${2}`("adds $a and $b", () => {});',
      "  test.concurrent.for(cases /* ) */)(`%s, then 100%% done`, () => {});",
      '  it("a plain title", () => {});',
      "});",
    ].join("\n");
    expect(testNamesOf(source)).toEqual({
      titles: ["a plain title"],
      templates: ["posts to %s", "case %i: $name answers 200", "adds $a and $b", "%s, then 100%% done"],
    });
  });

  it("matches a quote against a template's placeholders, shortened or not, and refuses other text", () => {
    const templates = ["posts to %s", "case %i: $name answers 200", "%s, then 100%% done"];
    expect(names("posts to /api/auth/magic-link", [], templates)).toBe(true);
    expect(names("case 3: the guard answers 200", [], templates)).toBe(true);
    expect(names("case … answers 200", [], templates)).toBe(true);
    expect(names("… the guard answers 200", [], templates)).toBe(true);
    expect(names("x, then 100% done", [], templates)).toBe(true);
    expect(names("posts from /a", [], templates)).toBe(false);
    expect(names("case 3: the guard answers 404", [], templates)).toBe(false);
    expect(names("answers 200 … case", [], templates)).toBe(false);
    // A bare part of a templated title may lie inside a placeholder's text: it must say where it is.
    expect(names("the guard answers 200", [], templates)).toBe(false);
  });

  it("takes a template of placeholders only (`%s`) to be the file's string literals, not any text", () => {
    const source = [
      'const CASES = [{ name: "module imports env from cloudflare:workers" }];',
      'it.each(CASES.map((c) => [c.name]))("%s", () => {});',
    ].join("\n");
    const { titles, templates } = testNamesOf(source);
    expect(templates).toEqual([]);
    expect(names("module imports env from cloudflare:workers", titles, templates)).toBe(true);
    expect(names("module imports anything at all", titles, templates)).toBe(false);
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
      const known = named.flatMap((f) => titlesByFile.get(f)?.titles ?? []);
      const templates = named.flatMap((f) => titlesByFile.get(f)?.templates ?? []);
      for (const title of titles) {
        if (!names(title, known, templates)) {
          problems.push(`${file}: no test titled "${title}"`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
