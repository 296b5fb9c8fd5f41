import type { Email } from "postal-mime";

/**
 * format=flowed (RFC 3676) done here rather than by postal-mime.
 *
 * postal-mime 4 un-flows a flowed text/plain part without regard to quote depth: a quoted line
 * ending in a space ("> Hi ") is joined with the unquoted answer below it ("Hello"), and the
 * reply stripper then drops the joined line as a quote, the sender's words with it. RFC 3676
 * §4.5 never joins lines of different quote depth. So, while the message streams in,
 * {@link FlowedRewriter} changes only the `format=flowed` parameter of inline text/plain parts'
 * Content-Type header lines to `format=fixed` (never a body byte), remembering each part's
 * delsp; postal-mime then leaves the text as sent, and {@link unflowText} un-flows it.
 */

/**
 * Un-flows format=flowed text (RFC 3676 §4.1–4.5): a line ending in a space is joined with the
 * next line of the SAME quote depth (a depth change ends the paragraph, the line counts as fixed);
 * one space after the quote marks is space-stuffing and removed; with delsp=yes the soft break's
 * space is removed too; the signature separator "-- " is a line of its own, never joined.
 */
export function unflowText(text: string, delsp: boolean): string {
  const out: string[] = [];
  // The open paragraph: its quote depth and the pieces joined so far (a soft break was seen).
  let open: { depth: number; pieces: string[] } | null = null;
  for (const line of text.split(/\r?\n/)) {
    let depth = 0;
    while (depth < line.length && line.charCodeAt(depth) === 0x3e /* > */) {
      depth++;
    }
    let content = line.slice(depth);
    if (content.charCodeAt(0) === 0x20) {
      content = content.slice(1); // §4.4 space-stuffing, after the quote marks
    }
    const signature = content === "-- ";
    if (open !== null && (open.depth !== depth || signature)) {
      out.push(render(open)); // §4.5: a quote depth change ends the paragraph; §4.3 the separator
      open = null;
    }
    const flowed = !signature && content.endsWith(" ");
    const piece = flowed && delsp ? content.slice(0, -1) : content;
    if (open === null) {
      open = { depth, pieces: [piece] };
    } else {
      open.pieces.push(piece);
    }
    if (!flowed) {
      out.push(render(open));
      open = null;
    }
  }
  if (open !== null) {
    out.push(render(open));
  }
  return out.join("\n");
}

function render(paragraph: { depth: number; pieces: string[] }): string {
  const text = paragraph.pieces.join("");
  if (paragraph.depth === 0) {
    return text;
  }
  const marks = ">".repeat(paragraph.depth);
  return text.length > 0 ? `${marks} ${text}` : marks;
}

/** An inline text/plain part as its headers declare it. */
export type PlainPart = { flowed: boolean; delsp: boolean };

// A header section longer than this is passed on untouched (postal-mime caps all headers at 2 MiB).
const MAX_SECTION_BYTES = 256 * 1024;
// A boundary is at most 70 characters (RFC 2046); a longer line starting with "-" is body.
const MAX_BOUNDARY_LINE = 2 + 70 + 2 + 64;
const LF = 0x0a;
const CR = 0x0d;
const DASH = 0x2d;
const FIXED = new TextEncoder().encode("fixed");

type Param = { name: string; value: string; start: number; end: number };

/**
 * A pass-through stream that knows where header sections are (the message's, each body part's
 * after a boundary line, an inline message/rfc822's) and rewrites `format=flowed` of inline
 * text/plain parts to `format=fixed`. Body bytes are passed on as they come, in the chunks they
 * came in; only header sections are held until their blank line.
 */
export class FlowedRewriter {
  readonly parts: PlainPart[] = [];
  readonly stream: TransformStream<Uint8Array, Uint8Array>;
  private readonly boundaries = new Set<string>();
  private mode: "header" | "body" = "header";
  // Header mode: the section so far, and where its current line starts.
  private section: number[] = [];
  private lineStart = 0;
  // Body mode: the start of the current line when it begins with "-", or null.
  private dashLine: number[] | null = null;
  private atLineStart = true;

  constructor() {
    this.stream = new TransformStream({
      transform: (chunk, controller) => this.transform(chunk, controller),
      flush: (controller) => {
        if (this.mode === "header" && this.section.length > 0) {
          controller.enqueue(this.endSection());
        }
      },
    });
  }

  /** The email with its flowed text un-flowed, when that can be done without guessing. */
  apply(email: Email): Email {
    if (email.text === undefined || !this.parts.some((p) => p.flowed)) {
      return email;
    }
    const [first] = this.parts;
    // email.text joins every inline text part; one rule must fit them all. A flowed part next to
    // a fixed one stays as sent: its soft breaks remain line breaks, and nothing is lost.
    if (first && this.parts.every((p) => p.flowed && p.delsp === first.delsp)) {
      return { ...email, text: unflowText(email.text, first.delsp) };
    }
    return email;
  }

  private transform(chunk: Uint8Array, controller: TransformStreamDefaultController<Uint8Array>): void {
    let i = 0;
    let emitFrom = 0;
    while (i < chunk.length) {
      if (this.mode === "header") {
        const nl = chunk.indexOf(LF, i);
        const end = nl < 0 ? chunk.length : nl + 1;
        for (let k = i; k < end; k++) {
          this.section.push(chunk[k] as number);
        }
        i = end;
        if (this.section.length > MAX_SECTION_BYTES) {
          // Too long to be headers worth reading: passed on untouched, and read as body.
          controller.enqueue(Uint8Array.from(this.section));
          this.resetSection();
          this.enterBody(nl >= 0);
          emitFrom = i;
          continue;
        }
        if (nl < 0) {
          break;
        }
        const lineLength = this.section.length - this.lineStart;
        const blank = lineLength === 1 || (lineLength === 2 && this.section[this.lineStart] === CR);
        if (blank) {
          const bodyIsHeaders = this.sectionStartsNested();
          controller.enqueue(this.endSection());
          if (!bodyIsHeaders) {
            this.enterBody(true);
          }
        } else {
          this.lineStart = this.section.length;
        }
        emitFrom = i;
        continue;
      }
      // Body: pass on as is; only a line starting with "-" is looked at, for a boundary.
      const nl = chunk.indexOf(LF, i);
      const end = nl < 0 ? chunk.length : nl + 1;
      if (this.atLineStart && chunk[i] === DASH) {
        this.dashLine = [];
      }
      if (this.dashLine !== null) {
        for (let k = i; k < end && this.dashLine.length <= MAX_BOUNDARY_LINE; k++) {
          this.dashLine.push(chunk[k] as number);
        }
      }
      i = end;
      this.atLineStart = nl >= 0;
      if (nl >= 0 && this.dashLine !== null) {
        const opensPart = this.isPartBoundary(this.dashLine);
        this.dashLine = null;
        if (opensPart) {
          controller.enqueue(chunk.subarray(emitFrom, i));
          emitFrom = i;
          this.mode = "header";
        }
      }
    }
    if (this.mode === "body" && emitFrom < chunk.length) {
      controller.enqueue(emitFrom === 0 ? chunk : chunk.subarray(emitFrom));
    }
  }

  private enterBody(atLineStart: boolean): void {
    this.mode = "body";
    this.atLineStart = atLineStart;
    this.dashLine = null;
  }

  private resetSection(): void {
    this.section = [];
    this.lineStart = 0;
  }

  /** "--boundary" of a known multipart opens a part; "--boundary--" closes it (body follows). */
  private isPartBoundary(line: number[]): boolean {
    if (line.length > MAX_BOUNDARY_LINE || this.boundaries.size === 0) {
      return false;
    }
    const text = String.fromCharCode(...line).replace(/[ \t\r\n]+$/, "");
    return text.startsWith("--") && this.boundaries.has(text.slice(2));
  }

  private fields(): { name: string; raw: string; at: number }[] {
    const text = latin1(this.section);
    const fields: { name: string; raw: string; at: number }[] = [];
    let at = 0;
    for (const line of text.split(/(?<=\n)/)) {
      const last = fields[fields.length - 1];
      if (last && (line.startsWith(" ") || line.startsWith("\t"))) {
        last.raw += line;
      } else {
        const colon = line.indexOf(":");
        fields.push({ name: colon < 0 ? "" : line.slice(0, colon).trim().toLowerCase(), raw: line, at });
      }
      at += line.length;
    }
    return fields;
  }

  /** Whether the section just ended declares an inline message/rfc822 whose body postal-mime parses. */
  private sectionStartsNested(): boolean {
    const fields = this.fields();
    const type = fields.find((f) => f.name === "content-type");
    const media = type ? mediaType(type.raw) : "text/plain";
    const encoding = fields.find((f) => f.name === "content-transfer-encoding");
    const identity = !encoding || /^\s*(?:7bit|8bit|binary)?\s*$/i.test(fieldValue(encoding.raw));
    return media === "message/rfc822" && !isAttachment(fields) && identity;
  }

  /** The section as it goes on: its Content-Type rewritten for an inline flowed text/plain part. */
  private endSection(): Uint8Array {
    const bytes = this.section;
    const fields = this.fields();
    this.resetSection();
    // postal-mime reads the first Content-Type and Content-Disposition of a part.
    const type = fields.find((f) => f.name === "content-type");
    const media = type ? mediaType(type.raw) : "text/plain";
    const params = type ? parameters(type.raw) : [];
    if (media.startsWith("multipart/")) {
      const boundary = params.find((p) => p.name === "boundary")?.value;
      if (boundary) {
        this.boundaries.add(boundary);
      }
    }
    if (media !== "text/plain" || isAttachment(fields) || !type) {
      if (media === "text/plain" && !isAttachment(fields)) {
        this.parts.push({ flowed: false, delsp: false });
      }
      return Uint8Array.from(bytes);
    }
    const format = params.find((p) => p.name === "format");
    const delsp = /^yes$/i.test(params.find((p) => p.name === "delsp")?.value ?? "");
    if (!format || !/^flowed$/i.test(format.value)) {
      this.parts.push({ flowed: false, delsp: false });
      return Uint8Array.from(bytes);
    }
    this.parts.push({ flowed: true, delsp });
    const start = type.at + format.start;
    const end = type.at + format.end;
    const out = new Uint8Array(bytes.length - (end - start) + FIXED.length);
    out.set(bytes.slice(0, start), 0);
    out.set(FIXED, start);
    out.set(bytes.slice(end), start + FIXED.length);
    return out;
  }
}

function latin1(bytes: number[]): string {
  let text = "";
  for (let i = 0; i < bytes.length; i += 8192) {
    text += String.fromCharCode(...bytes.slice(i, i + 8192));
  }
  return text;
}

function fieldValue(raw: string): string {
  return raw.slice(raw.indexOf(":") + 1);
}

function mediaType(raw: string): string {
  return (fieldValue(raw).split(";")[0] ?? "").trim().toLowerCase();
}

function isAttachment(fields: { name: string; raw: string }[]): boolean {
  const disposition = fields.find((f) => f.name === "content-disposition");
  return disposition !== undefined && mediaType(disposition.raw) === "attachment";
}

/** The parameters of a header field, with the span of each value in `raw` (quotes included). */
function parameters(raw: string): Param[] {
  const params: Param[] = [];
  let i = raw.indexOf(";", raw.indexOf(":") + 1);
  const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\r" || c === "\n";
  while (i >= 0 && i < raw.length) {
    i++; // past ";"
    while (isSpace(raw[i])) {
      i++;
    }
    const eq = raw.slice(i).search(/[=;]/);
    if (eq < 0 || raw[i + eq] === ";") {
      i = eq < 0 ? -1 : i + eq;
      continue;
    }
    const name = raw
      .slice(i, i + eq)
      .trim()
      .toLowerCase();
    i += eq + 1;
    while (isSpace(raw[i])) {
      i++;
    }
    const start = i;
    let value = "";
    if (raw[i] === '"') {
      i++;
      while (i < raw.length && raw[i] !== '"') {
        if (raw[i] === "\\") {
          i++;
        }
        value += raw[i] ?? "";
        i++;
      }
      i++; // past the closing quote
      params.push({ name, value, start, end: Math.min(i, raw.length) });
      i = raw.indexOf(";", i);
    } else {
      const semi = raw.indexOf(";", i);
      const stop = semi < 0 ? raw.length : semi;
      value = raw.slice(i, stop).replace(/[ \t\r\n]+$/, "");
      params.push({ name, value, start, end: start + value.length });
      i = semi;
    }
  }
  return params;
}
