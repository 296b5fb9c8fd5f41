import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, callJson, createTenant, expectProblem } from "../helpers/harness";

/** Issue 12, fixes 1 and 10: JSON bodies are capped, read once, after the guard, and only as JSON. */

async function problem(res: Response) {
  return { status: res.status, headers: res.headers, body: (await res.json()) as unknown };
}

/** A body streamed in chunks with no Content-Length, as a client lying about (or omitting) its size. */
function streamed(totalBytes: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode(`{"name":"${"x".repeat(16 * 1024)}`);
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= totalBytes) {
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
        return;
      }
      controller.enqueue(chunk);
      sent += chunk.byteLength;
    },
  });
}

describe("JSON request bodies", () => {
  it("refuses an unauthenticated request before reading its body", async () => {
    const res = await call("/api/kependudukan/units", {
      method: "POST",
      body: JSON.stringify({ block: "A", number: "1", filler: "x".repeat(2 * 1024 * 1024) }),
    });
    expectProblem(await problem(res), 401, "unauthorized");
  });

  it("answers 413 payload_too_large from Content-Length over 64 KB", async () => {
    const admin = await (await createTenant()).member("admin");
    const res = await callJson("/api/kependudukan/units", {
      token: admin.token,
      body: { block: "A", number: "1", filler: "x".repeat(70 * 1024) },
    });
    expectProblem(res, 413, "payload_too_large");
  });

  it("answers 413 while reading a chunked body with no Content-Length", async () => {
    const admin = await (await createTenant()).member("admin");
    const res = await exports.default.fetch(
      new Request("http://api.test/api/kependudukan/units", {
        method: "POST",
        headers: { Authorization: `Bearer ${admin.token}`, "Content-Type": "application/json" },
        body: streamed(1024 * 1024),
        duplex: "half",
      } as RequestInit),
    );
    expect(res.headers.get("Content-Length")).toBeNull();
    expectProblem(await problem(res), 413, "payload_too_large");
  });

  it("still takes a body under the cap, and lets a route raise its own cap (letterhead logo)", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const unit = await callJson("/api/kependudukan/units", {
      token: admin.token,
      body: { block: "B", number: "7" },
    });
    expect(unit.status).toBe(201);
    const logo = `data:image/png;base64,${"A".repeat(200_000)}`;
    const settings = await callJson("/api/surat/settings", {
      method: "PUT",
      token: admin.token,
      body: { logoDataUrl: logo },
    });
    expect(settings.status).not.toBe(413);
    expect(settings.status).toBeLessThan(500);
  });

  it("answers 415 for a JSON route given another media type, which also stops simple cross-site posts", async () => {
    const admin = await (await createTenant()).member("admin");
    for (const type of [
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const res = await callJson("/api/kependudukan/units", {
        token: admin.token,
        body: JSON.stringify({ block: "C", number: "1" }),
        headers: { "Content-Type": type },
      });
      expectProblem(res, 415, "unsupported_media_type");
    }
    const vendor = await callJson("/api/kependudukan/units", {
      token: admin.token,
      body: JSON.stringify({ block: "C", number: "2" }),
      headers: { "Content-Type": "application/vnd.warga+json; charset=utf-8" },
    });
    expect(vendor.status).toBe(201);
  });

  it("parses the body once: malformed JSON is 400 malformed_json after the guard", async () => {
    const admin = await (await createTenant()).member("admin");
    const res = await callJson("/api/kependudukan/units", { token: admin.token, body: "{ block: oops" });
    expectProblem(res, 400, "malformed_json");
  });
});

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
