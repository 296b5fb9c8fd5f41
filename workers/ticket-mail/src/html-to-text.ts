// A small HTML-to-text converter for mail bodies. No DOM exists in workerd and mail HTML is
// rarely well formed, so this is a forgiving tokenizer with a tag stack, not a parser. It also
// drops the quoted history that mail clients wrap in recognisable elements, because once the
// markup is gone the history can no longer be told apart from the new text reliably.

import { decodeEntities } from "./entities";
import { trimEndSpaces } from "./strip-quotes";

export type HtmlToTextResult = {
  text: string;
  // Content-IDs of images referenced from the kept part, and from the whole document: an
  // inline image referenced only from the quoted history is the history's, not the reply's.
  keptCids: Set<string>;
  allCids: Set<string>;
};

type Attrs = Map<string, string>;
type Link = { href: string; text: string };

// Mail HTML past this size is history or abuse; the tokenizer is linear but not free.
const MAX_HTML_CHARS = 1_000_000;
// Browsers cap nesting too; it bounds the search for a closing tag's match.
const MAX_DEPTH = 256;

// Every alternative that opens a construct also ends at the end of input, so a match never
// fails after a long scan: unterminated tags and comments cannot make tokenizing quadratic.
// Like a browser, an unterminated tag swallows the rest of the document.
const TOKEN =
  /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![^>]*(?:>|$)|<\?[^>]*(?:>|$)|<(\/?)([a-zA-Z][a-zA-Z0-9:-]*)((?:=\s*"[^"]*(?:"|$)|=\s*'[^']*(?:'|$)|[^>])*)(?:>|$)|[^<]+|</g;
const ATTR = /([^\s"'=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
const INVISIBLE = new Set(["head", "style", "script", "title", "template", "noscript", "xml", "svg"]);
const BLOCK = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "center",
  "dd",
  "div",
  "dl",
  "dt",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "li",
  "main",
  "nav",
  "ol",
  "pre",
  "section",
  "table",
  "tbody",
  "thead",
  "tfoot",
  "tr",
  "ul",
]);

const QUOTE_CLASSES = [
  "gmail_quote",
  "gmail_quote_container",
  "gmail_extra",
  "gmail_signature",
  "moz-cite-prefix",
  "moz-signature",
  "yahoo_quoted",
  "protonmail_quote",
];
const QUOTE_IDS = ["applemailsignature", "signature", "ms-outlook-mobile-signature"];
const HISTORY_IDS = [
  "divrplyfwdmsg",
  "appendonsend",
  "stopspelling",
  "mail-editor-reference-message-container",
  "ms-outlook-mobile-reference-message",
];
// Outlook for Windows separates the history with a top-bordered div holding From/Sent/To.
const OUTLOOK_SEPARATOR = /border-top:\s*solid\s+#(?:e1e1e1|b5c4df)/i;

function parseAttrs(source: string): Attrs {
  const attrs: Attrs = new Map();
  for (const m of source.matchAll(ATTR)) {
    attrs.set((m[1] ?? "").toLowerCase(), decodeEntities(m[2] ?? m[3] ?? m[4] ?? ""));
  }
  return attrs;
}

function classes(attrs: Attrs): string[] {
  return (attrs.get("class") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
}

/** An element whose subtree is quoted history or a signature: skipped, text after it kept. */
function isQuoteElement(tag: string, attrs: Attrs): boolean {
  if (tag === "blockquote" && (attrs.get("type") ?? "").toLowerCase() === "cite") {
    return true;
  }
  if (classes(attrs).some((c) => QUOTE_CLASSES.includes(c))) {
    return true;
  }
  return attrs.get("data-smartmail") === "gmail_signature" || QUOTE_IDS.includes(idOf(attrs));
}

/** An element that starts the history: nothing from here on is the reply. */
function isHistoryStart(tag: string, attrs: Attrs): boolean {
  if (HISTORY_IDS.includes(idOf(attrs))) {
    return true;
  }
  if (classes(attrs).includes("outlookmessageheader")) {
    return true;
  }
  return tag === "div" && OUTLOOK_SEPARATOR.test(attrs.get("style") ?? "");
}

function idOf(attrs: Attrs): string {
  return (attrs.get("id") ?? "").toLowerCase();
}

class TextBuilder {
  // Chunks joined once at the end, and the last two characters written: asking a growing
  // string what it ends with flattens it every time, which is quadratic on long mails.
  private readonly parts: string[] = [];
  private tail = "";

  text(chunk: string, pre: boolean): void {
    const value = pre ? chunk : chunk.replace(/[ \t\r\n\f]+/g, " ");
    this.push(!pre && this.atLineStart() && value.startsWith(" ") ? value.slice(1) : value);
  }

  /** Ends the current line unless already at a line start. */
  line(): void {
    if (!this.atLineStart()) {
      this.push("\n");
    }
  }

  /** Ensures one empty line, as between paragraphs. */
  paragraph(): void {
    this.line();
    if (this.parts.length > 0 && this.tail !== "\n\n") {
      this.push("\n");
    }
  }

  raw(chunk: string): void {
    this.push(chunk);
  }

  private push(chunk: string): void {
    if (chunk.length > 0) {
      this.parts.push(chunk);
      this.tail = (this.tail + chunk).slice(-2);
    }
  }

  private atLineStart(): boolean {
    return this.parts.length === 0 || this.tail.endsWith("\n");
  }

  toString(): string {
    return this.parts
      .join("")
      .split("\n")
      .map((l) => trimEndSpaces(l.replace(/\u00a0/g, " ")))
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
  }
}

export function htmlToText(html: string): HtmlToTextResult {
  const out = new TextBuilder();
  const keptCids = new Set<string>();
  const allCids = new Set<string>();
  // Tags opened so far, with a flag for those that started a skipped (quoted) subtree.
  const stack: { tag: string; skip: boolean }[] = [];
  let skipDepth = 0;
  let invisible: string | null = null;
  let pre = 0;
  let stopped = false;
  const links: Link[] = [];

  for (const m of html.slice(0, MAX_HTML_CHARS).matchAll(TOKEN)) {
    const token = m[0];
    const tagName = m[2]?.toLowerCase();
    if (invisible !== null) {
      if (tagName === invisible && m[1] === "/") {
        invisible = null;
      }
      continue;
    }
    if (tagName === undefined) {
      if (!token.startsWith("<") || token === "<") {
        if (!stopped && skipDepth === 0) {
          const text = decodeEntities(token);
          out.text(text, pre > 0);
          // Only to compare with the href, so the innermost link and a bounded length suffice.
          const link = links[links.length - 1];
          if (link !== undefined && link.text.length < 2048) {
            link.text += text;
          }
        }
      }
      continue;
    }
    const closing = m[1] === "/";
    const attrs = closing ? new Map<string, string>() : parseAttrs(m[3] ?? "");

    if (!closing && tagName === "img") {
      const src = attrs.get("src") ?? "";
      if (src.toLowerCase().startsWith("cid:")) {
        const cid = src.slice(4).trim().toLowerCase();
        allCids.add(cid);
        if (!stopped && skipDepth === 0) {
          keptCids.add(cid);
        }
      }
      continue;
    }
    if (stopped) {
      // Keep scanning only to learn which images the history references.
      continue;
    }
    if (!closing && INVISIBLE.has(tagName) && !(m[3] ?? "").trim().endsWith("/")) {
      invisible = tagName;
      continue;
    }
    // Inside a quote, an older message's separator says nothing about what follows the quote.
    if (!closing && skipDepth === 0 && isHistoryStart(tagName, attrs)) {
      stopped = true;
      continue;
    }

    if (closing) {
      const index = findOpen(stack, tagName);
      if (index < 0) {
        continue;
      }
      // Elements left open inside are closed with it, as a browser would.
      for (const entry of stack.splice(index)) {
        if (entry.skip) {
          skipDepth--;
        }
        if (entry.tag === "pre") {
          pre = Math.max(0, pre - 1);
        }
      }
      if (skipDepth === 0) {
        closeTag(out, tagName, links);
      }
      continue;
    }

    const skip = isQuoteElement(tagName, attrs);
    if (!VOID.has(tagName) && !(m[3] ?? "").trim().endsWith("/") && stack.length < MAX_DEPTH) {
      stack.push({ tag: tagName, skip });
      if (skip) {
        skipDepth++;
      }
      if (tagName === "pre") {
        pre++;
      }
    }
    if (skipDepth === 0) {
      openTag(out, tagName, attrs, links);
    }
  }
  return { text: out.toString(), keptCids, allCids };
}

function findOpen(stack: { tag: string }[], tag: string): number {
  for (let i = stack.length - 1; i >= 0; i--) {
    if (stack[i]?.tag === tag) {
      return i;
    }
  }
  return -1;
}

function openTag(out: TextBuilder, tag: string, attrs: Attrs, links: Link[]): void {
  if (tag === "br") {
    out.raw("\n");
  } else if (tag === "hr") {
    out.line();
    out.raw("---\n");
  } else if (tag === "p") {
    // Outlook writes every line as a zero-margin MsoNormal paragraph; others mean a real paragraph.
    if (classes(attrs).includes("msonormal")) {
      out.line();
    } else {
      out.paragraph();
    }
  } else if (tag === "li") {
    out.line();
    out.raw("- ");
  } else if (tag === "td" || tag === "th") {
    out.text(" ", false);
  } else if (tag === "a") {
    links.push({ href: attrs.get("href") ?? "", text: "" });
  } else if (BLOCK.has(tag)) {
    out.line();
  }
}

function closeTag(out: TextBuilder, tag: string, links: Link[]): void {
  if (tag === "a") {
    const link = links.pop();
    const href = link?.href.trim() ?? "";
    // A bare link keeps its address; a link whose text already shows it needs nothing more.
    if (link && /^https?:\/\//i.test(href) && !link.text.includes(href.replace(/^https?:\/\//i, ""))) {
      out.text(` <${href}>`, false);
    }
  } else if (tag === "p") {
    out.line();
  } else if (BLOCK.has(tag)) {
    out.line();
  }
}
