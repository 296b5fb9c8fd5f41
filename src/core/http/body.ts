import { Invalid, TooLarge, UnsupportedMedia } from "../errors";
import { hasUnsafeText } from "../schemas";

/** The default cap of a JSON request body; a route that needs more says so (`Endpoint.maxBodyBytes`). */
export const DEFAULT_JSON_LIMIT = 64 * 1024;

const JSON_TYPE_RE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export function isJsonType(contentType: string | null): boolean {
  return contentType !== null && JSON_TYPE_RE.test(contentType.trim());
}

function tooLarge(limit: number): TooLarge {
  return new TooLarge(`The request body is larger than ${limit} bytes.`, "payload_too_large");
}

/**
 * Reads a request body of at most `limit` bytes: refused from `Content-Length` before reading, and
 * while reading for a body that does not declare its length (chunked), so no more than the limit is
 * ever held in memory.
 */
export async function readCapped(request: Request, limit: number): Promise<Uint8Array> {
  const declared = request.headers.get("Content-Length");
  if (declared !== null && Number(declared) > limit) {
    throw tooLarge(limit);
  }
  if (!request.body) {
    return new Uint8Array();
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * How deep a JSON body may nest. No schema of ours goes past a handful of levels; the cap is far
 * above that and far below what a recursive walk (ours, a library's) can take (issue 31, N2: 5,000
 * levels in 10 KB overflowed the stack and answered 500).
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests deeper than `max`, found by one pass over the characters (strings skipped)
 * before anything parses or walks it. Text that is not JSON at all is left to the parser.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === BACKSLASH) {
        i++;
      } else if (ch === QUOTE) {
        inString = false;
      }
    } else if (ch === QUOTE) {
      inString = true;
    } else if (ch === OPEN_BRACE || ch === OPEN_BRACKET) {
      depth++;
      if (depth > max) {
        return true;
      }
    } else if (ch === CLOSE_BRACE || ch === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * Every string of a request body, whatever its schema says: the net under `Line`/`Paragraph`, so a
 * field declared as a plain `z.string()` still never carries a NUL, an ANSI escape or a bidi override
 * into storage. Returns the dotted paths of the offending fields. Iterative with an explicit stack, so
 * no nesting can overflow the call stack (the depth is capped before this runs, but the walk does not
 * rely on it).
 */
export function unsafeTextPaths(root: unknown): string[] {
  const found: string[] = [];
  const stack: { value: unknown; path: string }[] = [{ value: root, path: "" }];
  const join = (path: string, key: string) => (path === "" ? key : `${path}.${key}`);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const { value, path } = next;
    if (typeof value === "string") {
      if (hasUnsafeText(value)) {
        found.push(path);
      }
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        stack.push({ value: value[i], path: join(path, String(i)) });
      }
    } else if (value && typeof value === "object") {
      const entries = Object.entries(value);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i] as [string, unknown];
        stack.push({ value: item, path: join(path, key) });
      }
    }
  }
  return found;
}

/**
 * The JSON body of a route that declares one, read once. An empty body is `{}` (the schema decides
 * whether that is enough); a body in another media type is 415, which also keeps simple cross-site
 * form posts away from JSON routes; text that is not JSON is 400 `malformed_json`.
 */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const contentType = request.headers.get("Content-Type");
  const declared = request.headers.get("Content-Length");
  const empty = !request.body || declared === "0";
  if (!empty && !isJsonType(contentType)) {
    throw new UnsupportedMedia("This route takes a JSON body (Content-Type: application/json).");
  }
  const text = new TextDecoder().decode(await readCapped(request, limit));
  if (text.trim() === "") {
    return {};
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new Invalid("too_deep", `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Invalid("malformed_json", "The request body is not valid JSON.");
  }
}
