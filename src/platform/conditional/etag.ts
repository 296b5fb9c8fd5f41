import type { Context } from "hono";
import type { HonoEnv } from "../../core/env";

/**
 * The opaque part of a versioned resource's tag (platform/conditional, ADR 0035): a 64-bit digest of
 * the answer's bytes, so the tag moves when the body does without the row (a poll's tally, a budget
 * year's realisation). A validator only needs two successive bodies of one resource to differ, with no
 * adversary to resist (a client that forges a tag only fools itself), so the digest is two 32-bit
 * multiply-xor lanes over the bytes instead of SHA-256: crypto.subtle's digest (a promise and a copy into
 * native code) cost about 0.04 ms per answer, this a few microseconds (`npm run bench -- read-path`).
 */
export function bodyDigest(bytes: Uint8Array): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    a = Math.imul(a ^ byte, 0x01000193);
    b = Math.imul(b ^ byte, 0x5bd1e995);
    b ^= b >>> 15;
  }
  // Final mixing, so a change in the last bytes reaches every bit of both lanes.
  a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
  a ^= a >>> 13;
  b = Math.imul(b ^ (b >>> 16), 0xc2b2ae35);
  b ^= b >>> 16;
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/**
 * Answers a versioned route built with `c.json`, each with the JSON text it was built from: the tag is
 * computed from that text instead of a copy of the answer's body read back from its stream.
 */
const jsonTexts = new WeakMap<Response, string>();

/** Makes this request's `c.json` keep its text; the answer is built as Hono's own `c.json` builds it. */
export function keepJsonText(c: Context<HonoEnv>): void {
  type HeaderRecord = Record<string, string | string[]>;
  const body = c.body as (data: string, arg?: number | ResponseInit, headers?: HeaderRecord) => Response;
  const json = (object: unknown, arg?: number | ResponseInit, headers?: HeaderRecord) => {
    const text = JSON.stringify(object);
    const res = body(text, arg, { "Content-Type": "application/json", ...headers });
    jsonTexts.set(res, text);
    return res;
  };
  c.json = json as unknown as typeof c.json;
}

const encoder = new TextEncoder();

/** `"<version>-<digest of the body>"`: from the kept JSON text, else from a copy of the body. */
export async function etagOf(res: Response, version: number): Promise<string> {
  const text = jsonTexts.get(res);
  const bytes = text === undefined ? new Uint8Array(await res.clone().arrayBuffer()) : encoder.encode(text);
  return `"${version}-${bodyDigest(bytes)}"`;
}
