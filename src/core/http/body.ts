import { Invalid, TooLarge, UnsupportedMedia } from "../errors";

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
  try {
    return JSON.parse(text);
  } catch {
    throw new Invalid("malformed_json", "The request body is not valid JSON.");
  }
}
