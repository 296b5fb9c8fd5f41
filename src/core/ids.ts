import { base64url as b64 } from "jose";

/** Crockford's base32, the ULID alphabet. */
const ULID_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
let lastTime = -1;
let timePart = "";
/** The random part as 16 base-32 digits (80 bits), kept to count up within one millisecond. */
const randomDigits = new Uint8Array(16);

function encodeTime(ms: number): string {
  let out = "";
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = ULID_ALPHABET.charAt(rest % 32) + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/**
 * Sortable id (ULID, https://github.com/ulid/spec): 48 bits of milliseconds, then 80 random bits;
 * lexical order is creation order, which keyset pagination relies on. Monotonic within an isolate: a
 * second id in the same millisecond (workerd's clock stands still while a request computes) counts the
 * previous random part up by one. One `getRandomValues` call per new millisecond (each byte's low five
 * bits are one unbiased digit), where ulidx made sixteen, one per digit, on every request.
 */
export function newId(): string {
  const now = Date.now();
  if (now > lastTime) {
    lastTime = now;
    timePart = encodeTime(now);
    crypto.getRandomValues(randomDigits);
    for (let i = 0; i < 16; i++) {
      randomDigits[i] = (randomDigits[i] as number) & 31;
    }
  } else {
    // Same (or an earlier, stepped-back) millisecond: the next value after the last id.
    let i = 15;
    while (i >= 0 && randomDigits[i] === 31) {
      randomDigits[i] = 0;
      i--;
    }
    if (i < 0) {
      throw new Error("ULID random part overflowed within one millisecond");
    }
    randomDigits[i] = (randomDigits[i] as number) + 1;
  }
  let random = "";
  for (let i = 0; i < 16; i++) {
    random += ULID_ALPHABET.charAt(randomDigits[i] as number);
  }
  return timePart + random;
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
