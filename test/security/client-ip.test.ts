import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../helpers/harness";

/**
 * Issue 12, fix 9: a per-IP limit is not escaped by leaving out CF-Connecting-IP. Requests without a
 * client IP share one bucket per policy. The harness's `call` gives every request its own address, so
 * these requests go to the Worker's fetch handler directly.
 */

const BOGUS = { token: "x".repeat(43) };
/** identity's `token-exchange:ip` policy: 60 a client IP per 10 minutes. */
const LIMIT = 60;

function verifyWithoutIp() {
  return exports.default.fetch(
    new Request("http://api.test/api/auth/magic-link/verify", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(BOGUS),
    }),
  );
}

describe("client IP for per-IP rate limits", () => {
  it("counts every request without CF-Connecting-IP in one shared bucket", async () => {
    for (let i = 1; i <= LIMIT; i++) {
      const res = await verifyWithoutIp();
      expect(res.status, `request ${i}`).toBe(401);
      await res.body?.cancel();
    }
    const over = await verifyWithoutIp();
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("Retry-After"))).toBeGreaterThan(0);
    await over.body?.cancel();
  });

  it("keeps distinct client IPs in their own buckets", async () => {
    for (let i = 1; i <= LIMIT + 1; i++) {
      const res = await call("/api/auth/magic-link/verify", {
        headers: { "CF-Connecting-IP": `203.0.113.${i}` },
        body: BOGUS,
      });
      expect(res.status, `request ${i}`).toBe(401);
      await res.body?.cancel();
    }
  });
});
