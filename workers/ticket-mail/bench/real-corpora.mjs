// The public real-world reply corpora the bench measures the stripper on (issue 49). Their text is
// read at bench time and never copied into this repository: what the repository keeps is
// real-corpora-labels.json, for each upstream file the line numbers of the text the reply keeps,
// derived from the upstream tests' expectations (and the sender's lines where they differ).
//
// Where the corpora are read from, first found wins:
//   1. WARGA_REPLY_CORPORA=<dir>, a directory holding one git repository per corpus, named
//      <owner>+<name>, either a checkout, a bare repository, or a folder with a bare repository
//      in `repo/`:
//        <dir>/github+email_reply_parser          github.com/github/email_reply_parser
//        <dir>/zapier+email-reply-parser          github.com/zapier/email-reply-parser
//        <dir>/willdurand+EmailReplyParser        github.com/willdurand/EmailReplyParser
//        <dir>/mailgun+talon                      github.com/mailgun/talon
//   2. .cache/reply-corpora/ at the repository root, in the same layout.
//   3. A shallow `git clone` of each repository into .cache/reply-corpora/; when that fails
//      (offline), the corpus is skipped with the reason, and the bench still runs. A smoke run
//      (`npm run bench -- --smoke`, BENCH_SMOKE=1) skips instead of cloning.
// Files are read with `git show HEAD:<path>`, so a bare repository needs no work tree.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";

const here = import.meta.dirname;
const root = path.join(here, "../../..");
const labels = JSON.parse(readFileSync(path.join(here, "real-corpora-labels.json"), "utf8"));

/** The corpora: upstream repository, where its mails are, and how a case's expectation is found. */
export const REAL_CORPORA = [
  { repo: "github/email_reply_parser", dir: "test/emails/", kind: "labelled" },
  { repo: "zapier/email-reply-parser", dir: "test/emails/", kind: "labelled" },
  { repo: "willdurand/EmailReplyParser", dir: "tests/Fixtures/", kind: "labelled" },
  { repo: "mailgun/talon", dir: "tests/fixtures/standard_replies/", kind: "talon" },
];

function git(dir, args) {
  const run = spawnSync("git", ["-C", dir, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return run.status === 0 ? run.stdout : null;
}

/** The git directory of a corpus under `base`, or null. */
function locate(base, repo) {
  const folder = path.join(base, repo.replace("/", "+"));
  for (const candidate of [path.join(folder, "repo"), folder]) {
    if (existsSync(candidate) && git(candidate, ["rev-parse", "--verify", "-q", "HEAD"]) !== null) {
      return candidate;
    }
  }
  return null;
}

function clone(base, repo) {
  mkdirSync(base, { recursive: true });
  const into = path.join(base, repo.replace("/", "+"));
  const run = spawnSync("git", ["clone", "--depth", "1", "--quiet", `https://github.com/${repo}.git`, into], {
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
  });
  if (run.status !== 0) {
    const why = (run.stderr || run.error?.message || `exit ${run.status}`).trim().split("\n").pop();
    return { error: `git clone failed (${why})` };
  }
  return { dir: into };
}

/** "1-3,5" → [1, 2, 3, 5] (1-based line numbers). */
function lineNumbers(ranges) {
  const out = [];
  for (const part of ranges.split(",").filter(Boolean)) {
    const [from, to = from] = part.split("-").map(Number);
    for (let n = from; n <= to; n++) {
      out.push(n);
    }
  }
  return out;
}

function pick(text, ranges) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  return lineNumbers(ranges)
    .map((n) => lines[n - 1] ?? "")
    .join("\n");
}

/** The cases of a corpus whose expectations are line labels (real-corpora-labels.json). */
function labelledCases(gitDir, corpus, files) {
  const cases = [];
  const own = labels[corpus.repo] ?? {};
  for (const [file, label] of Object.entries(own)) {
    if (file.startsWith("//")) {
      continue;
    }
    if (!files.includes(`${corpus.dir}${file}`)) {
      throw new Error(`${corpus.repo}: labelled file ${file} is not in the repository`);
    }
    const text = git(gitDir, ["show", `HEAD:${corpus.dir}${file}`]);
    const name = `${corpus.repo}:${file}`;
    if (typeof label === "string") {
      cases.push({ name, html: false, input: text, expected: pick(text, label), sender: pick(text, label) });
    } else if (label.template) {
      // A fixture with a placeholder the upstream test fills from a data provider: one case each.
      const source = git(gitDir, ["show", `HEAD:${label.template.test}`]) ?? "";
      const provider = source.slice(source.indexOf(`function ${label.template.provider}`));
      const values = [
        ...provider.slice(0, provider.indexOf("\n    }")).matchAll(/array\((['"])(.*?)\1\)/g),
      ].map((m) => m[2].replace(/\\'/g, "'"));
      values.forEach((value, k) => {
        const input = text.replace(label.template.placeholder, value);
        const expected = pick(input, label.keep);
        cases.push({ name: `${name}#${k + 1}`, html: false, input, expected, sender: expected });
      });
    } else {
      const expected = pick(text, label.keep);
      cases.push({
        name,
        html: false,
        input: text,
        expected,
        sender: pick(text, label.sender ?? label.keep),
      });
    }
  }
  return cases;
}

/** Talon's standard replies: whole messages; the reply is the `<name>_reply_text` file, or "Hello". */
function talonCases(gitDir, corpus, files) {
  return files
    .filter((f) => f.startsWith(corpus.dir) && f.endsWith(".eml"))
    .map((f) => {
      const replyFile = `${f.slice(0, -4)}_reply_text`;
      const expected = files.includes(replyFile)
        ? git(gitDir, ["show", `HEAD:${replyFile}`]).trim()
        : "Hello";
      const label = labels[corpus.repo]?.[f.slice(corpus.dir.length)];
      return {
        name: `${corpus.repo}:${f.slice(corpus.dir.length)}`,
        html: false,
        eml: true,
        input: git(gitDir, ["show", `HEAD:${f}`]),
        expected,
        sender: label?.sender ? pick(expected, label.sender) : expected,
      };
    });
}

/** Every real corpus as { name, cases } or { name, skipped }. */
export function loadRealCorpora() {
  const fromEnv = process.env.WARGA_REPLY_CORPORA;
  const cache = path.join(root, ".cache/reply-corpora");
  return REAL_CORPORA.map((corpus) => {
    let gitDir = fromEnv ? locate(fromEnv, corpus.repo) : null;
    gitDir ??= locate(cache, corpus.repo);
    if (gitDir === null) {
      if (fromEnv) {
        return { name: corpus.repo, skipped: `not found under WARGA_REPLY_CORPORA=${fromEnv}` };
      }
      if (process.env.BENCH_SMOKE === "1") {
        // CI's smoke run checks that the bench works, and clones nothing.
        return { name: corpus.repo, skipped: "smoke run: no local copy, and no clone in a smoke run" };
      }
      const cloned = clone(cache, corpus.repo);
      if (cloned.error) {
        return { name: corpus.repo, skipped: cloned.error };
      }
      gitDir = cloned.dir;
    }
    const files = (git(gitDir, ["ls-tree", "-r", "--name-only", "HEAD", "--", corpus.dir]) ?? "")
      .split("\n")
      .filter(Boolean);
    if (files.length === 0) {
      return { name: corpus.repo, skipped: `no files under ${corpus.dir} in ${gitDir}` };
    }
    const cases =
      corpus.kind === "talon" ? talonCases(gitDir, corpus, files) : labelledCases(gitDir, corpus, files);
    return { name: corpus.repo, cases };
  });
}
