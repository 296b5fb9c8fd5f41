import { type RateLimitNote, requestScope } from "./http/requestScope";

export type { RateLimitNote };

/** Notes one decision in the request in progress (core/http/requestScope.ts); outside a request, nothing. */
export function noteRateLimit(note: RateLimitNote): void {
  const list = requestScope()?.rateLimits;
  if (list && !list.some((n) => n.policy === note.policy)) {
    list.push(note);
  }
}

/** A policy name as a Structured Field string (RFC 8941): printable ASCII, `"` and `\` escaped. */
function sfString(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]/g, "").replace(/[\\"]/g, (m) => `\\${m}`)}"`;
}

export function rateLimitHeaders(list: readonly RateLimitNote[]): { policy: string; state: string } | null {
  if (list.length === 0) {
    return null;
  }
  // In policy-name order, not in the order the limits answered (which varies run to run, and with it
  // the answer's bytes: the sign-in routes must answer known and unknown accounts identically).
  const sorted = [...list].sort((a, b) => a.policy.localeCompare(b.policy));
  return {
    policy: sorted
      .map(
        (n) =>
          `${sfString(n.policy)};q=${n.limit};w=${n.windowSeconds}${n.unit === "bytes" ? ';qu="content-bytes"' : ""}`,
      )
      .join(", "),
    state: sorted
      .map((n) => `${sfString(n.policy)};r=${Math.max(0, n.remaining)};t=${Math.max(0, n.reset)}`)
      .join(", "),
  };
}
