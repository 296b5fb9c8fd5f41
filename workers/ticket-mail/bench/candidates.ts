// The reply strippers compared on the corpus by bench/reply-corpus.mjs, bundled and run in workerd.
import EmailReplyParser from "email-reply-parser";
import { convert } from "html-to-text";
import nodeEmailReplyParser from "node-email-reply-parser";
import planer from "planer";
import { htmlToText } from "../src/html-to-text";
import { readMessage } from "../src/parse";
import { stripQuotedText } from "../src/strip-quotes";
import { type CorpusCase, parseCorpus, scoreCase, summarise } from "../test/corpus-cases";

type Stripper = (text: string) => string;
/** A corpus as the bench sends it: the project's files (test/corpus format) or ready cases. */
type Corpus = { name: string; files?: Record<string, string>; cases?: (CorpusCase & { eml?: boolean })[] };
type Converter = (html: string) => string;

const strippers: Record<string, Stripper> = {
  warga: stripQuotedText,
  "email-reply-parser": (text) => new EmailReplyParser().read(text).getVisibleText(),
  planer: (text) => planer.extractFrom(text, "text/plain"),
  "node-email-reply-parser": (text) => nodeEmailReplyParser(text, true) as string,
};
const converters: Record<string, Converter> = {
  warga: (html) => htmlToText(html).text,
  "html-to-text": (html) => convert(html, { wordwrap: false }),
};

function run(cases: CorpusCase[], stripper: Stripper, converter: Converter) {
  const scores = cases.map((c) => {
    let actual: string;
    try {
      actual = stripper(c.html ? converter(c.input) : c.input);
    } catch (error) {
      actual = `THREW ${String(error)}`;
    }
    return { name: c.name, ...scoreCase(c.expected, actual, c.sender) };
  });
  return {
    summary: summarise(scores),
    failures: scores
      .filter((s) => !s.exact)
      .map((s) => ({ name: s.name, missing: s.missing, senderLost: s.senderLost, extra: s.extraLines })),
  };
}

/**
 * The time of one call of `fn`, in ms: workerd's clock moves in whole milliseconds, so a call shorter
 * than that is repeated until 20 ms have passed, and the total divided by the calls.
 */
function perCall(fn: () => void): number {
  let calls = 0;
  const started = performance.now();
  let elapsed = 0;
  do {
    fn();
    calls++;
    elapsed = performance.now() - started;
  } while (elapsed < 20);
  return elapsed / calls;
}

/**
 * Best of 5 of `fn`, each round after one of its floor (floor, fn, floor, fn, …) so drift on a shared
 * machine falls on both alike (issue 49, item 6); the floor's rounds are added to `floors`.
 */
function timeOver(fn: () => void, floor: () => void, floors: number[]): number {
  fn(); // warm-up
  floor();
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    floors.push(perCall(floor));
    runs.push(perCall(fn));
  }
  return Math.min(...runs);
}

/**
 * The floors of a 1 MB body: the least any stripper or converter does with it. Text: split into lines,
 * test each for a quote mark, join what is left. HTML: drop the tags with one regular expression.
 */
const lineFloor = (text: string) =>
  text
    .split("\n")
    .filter((line) => !line.startsWith(">"))
    .join("\n").length;
const tagFloor = (html: string) => html.replace(/<[^>]*>/g, "\n").length;

/**
 * A whole message (a corpus's .eml) becomes its text part, or its HTML part when it has no text,
 * read as the Worker reads it (parse.ts: format=flowed un-flowed by quote depth).
 */
async function fromMessage(c: CorpusCase & { eml?: boolean }): Promise<CorpusCase> {
  if (!c.eml) {
    return c;
  }
  const email = await readMessage(new Blob([c.input]).stream());
  return email.text !== undefined
    ? { ...c, html: false, input: email.text }
    : { ...c, html: true, input: email.html ?? "" };
}

export default {
  async fetch(request: Request): Promise<Response> {
    const { corpora } = (await request.json()) as { corpora: Corpus[] };
    const prepared = await Promise.all(
      corpora.map(async (corpus) => ({
        name: corpus.name,
        cases: await Promise.all(
          (corpus.cases ?? Object.values(corpus.files ?? {}).flatMap(parseCorpus)).map(fromMessage),
        ),
      })),
    );
    // results[candidate][corpus]: the scores of each stripper + converter pair on each corpus.
    // The npm parsers run on the project's corpora only: some public corpora hold mails built to make
    // a regex parser backtrack (email_reply_parser's pathological.txt), on which they do not finish.
    const results: Record<string, Record<string, ReturnType<typeof run>>> = {};
    for (const [s, stripper] of Object.entries(strippers)) {
      for (const [c, converter] of Object.entries(converters)) {
        const mine = prepared.filter(
          (corpus) => s === "warga" || corpora.find((k) => k.name === corpus.name)?.files,
        );
        results[`${s} + ${c} html`] = Object.fromEntries(
          mine.map((corpus) => [corpus.name, run(corpus.cases, stripper, converter)]),
        );
      }
    }
    // 1 MB bodies: a long reply over a long quoted history, plain and HTML.
    const reply = "Baris balasan yang cukup panjang untuk diukur, nomor rumah 12 blok C.\n".repeat(2000);
    const quoted = "> Riwayat pesan sebelumnya yang dikutip oleh klien email, baris demi baris.\n";
    const plain = (
      reply +
      "\nOn Sat, Nov 21, 2026 at 10:00 AM Warga Support <support@warga.id> wrote:\n" +
      quoted.repeat(20000)
    ).slice(0, 1_000_000);
    const html = (
      "<div>" +
      reply.replaceAll("\n", "<br>") +
      '</div><div class="gmail_quote"><blockquote>' +
      quoted.repeat(20000).replaceAll("\n", "<br>")
    ).slice(0, 1_000_000);
    const timings: Record<string, { ms: number; floorMs: number }> = {};
    // One floor per kind of body, every row's rounds interleaved with it; each row is judged over the
    // best of all its kind's floor rounds (steadier than the five beside it alone).
    const textFloors: number[] = [];
    const htmlFloors: number[] = [];
    const textFloor = () => lineFloor(plain);
    const htmlFloor = () => tagFloor(html);
    const text: Record<string, number> = {};
    const markup: Record<string, number> = {};
    // Hostile shapes for the chosen stripper: long space runs, many attributions, header-like lines.
    const hostile = [
      `On ${" ".repeat(999_000)}wrote:`,
      `On 1 2 3 ${"a1 ".repeat(50)}\n`.repeat(6000),
      "On 1 Jan 2020, A wrote:\n> x\n".repeat(35_000),
      "A wrote:\n\n".repeat(100_000),
      "Dari: x\n".repeat(120_000),
      "From: a@b.c\nTo: x\nSubject: Fw: y\n\nbody\n".repeat(25_000),
      "AB> x\ny\n".repeat(120_000),
    ].map((body) => body.slice(0, 1_000_000));
    text[`warga (1 MB hostile text, worst of ${hostile.length} shapes)`] = Math.max(
      ...hostile.map((body) => timeOver(() => stripQuotedText(body), textFloor, textFloors)),
    );
    for (const [s, stripper] of Object.entries(strippers)) {
      text[`${s} (1 MB text)`] = timeOver(() => stripper(plain), textFloor, textFloors);
    }
    for (const [c, converter] of Object.entries(converters)) {
      markup[`${c} converter (1 MB html)`] = timeOver(() => converter(html), htmlFloor, htmlFloors);
    }
    for (const [name, ms] of Object.entries(text)) {
      timings[name] = { ms, floorMs: Math.min(...textFloors) };
    }
    for (const [name, ms] of Object.entries(markup)) {
      timings[name] = { ms, floorMs: Math.min(...htmlFloors) };
    }
    return Response.json({ results, timings });
  },
};
