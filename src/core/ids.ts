import { base64url as b64 } from "jose";
import { monotonicFactory } from "ulidx";

const ulid = monotonicFactory();

/** Sortable id (ULID): lexical order is creation order, which keyset pagination relies on. */
export function newId(): string {
  return ulid();
}

/** Random secret of `bytes` bytes (default 32 = 256 bits), base64url without padding. */
export function randomToken(bytes = 32): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return base64url(buf);
}

/** base64url without padding (RFC 4648 §5), as JWTs and our secrets use it; jose's codec. */
export const base64url = (bytes: Uint8Array): string => b64.encode(bytes);
export const fromBase64url = (text: string): Uint8Array => b64.decode(text);

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Constant-time comparison of two strings. workerd provides `crypto.subtle.timingSafeEqual`, which
 * throws on unequal lengths, so lengths are compared first (length is not secret: hashes have a fixed one).
 */
export function timingSafeEqualText(a: string, b: string): boolean {
  const enc = new TextEncoder();
  const left = enc.encode(a);
  const right = enc.encode(b);
  if (left.byteLength !== right.byteLength) {
    return false;
  }
  return crypto.subtle.timingSafeEqual(left, right);
}
