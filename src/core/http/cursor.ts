import { invalidCursor, MAX_CURSOR_LENGTH } from "../db/paging";

export { invalidCursor, MAX_CURSOR_LENGTH };

/**
 * Cursors on the wire (ADR 0040). A list's verb pages by an inner key it understands (the last id,
 * or `{value}~{id}` for lists ordered by something else, core/db/paging.ts); the client never sees that
 * key. It sees an opaque token: base64url of `1|{list}|{key}|{check}`, where `1` is the format's
 * version, `{list}` a short hash of the route that issued it, and `{check}` a short hash of the rest.
 * The endpoint (core/http/endpoint.ts) opens `?cursor=` before the verb runs and seals the answer's
 * `nextCursor`, so no list can forget either.
 *
 * Not signed: a cursor grants nothing (the verb still applies the caller's tenant and access), so a
 * forged one can only move where a page the caller may read starts. The check catches what happens by
 * accident (a truncated or mangled cursor, one of another list, one of an older format) and turns it
 * into 400 `invalid_cursor` instead of a silent first page.
 */
const VERSION = "1";

/** FNV-1a (32 bits) in base 36: a checksum and a list tag, not a secret. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function toBase64Url(text: string): string {
  let binary = "";
  for (const byte of encoder.encode(text)) {
    binary += String.fromCharCode(byte);
  }
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(token: string): string {
  const binary = atob(token.replace(/-/g, "+").replace(/_/g, "/"));
  return decoder.decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
}

/** The cursor the list at `route` (its OpenAPI path, `/api/visitor/{id}`) gives for the inner `key`. */
export function sealCursor(route: string, key: string): string {
  const body = `${VERSION}|${fnv1a(route)}|${key}`;
  return toBase64Url(`${body}|${fnv1a(body)}`);
}

/**
 * The inner key of a cursor the list at `route` gave, or 400 `invalid_cursor`. A cursor is accepted
 * only when sealing its key again gives the very same text: that one comparison checks the version,
 * the list, the checksum and the encoding (no padding, no second spelling of the same bytes).
 */
export function openCursor(route: string, cursor: string): string {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) {
    throw invalidCursor();
  }
  let text: string;
  try {
    text = fromBase64Url(cursor);
  } catch {
    throw invalidCursor();
  }
  const parts = text.split("|");
  const key = parts.slice(2, -1).join("|");
  if (parts.length < 4 || key === "" || sealCursor(route, key) !== cursor) {
    throw invalidCursor();
  }
  return key;
}
