import { describe, expect, it } from "vitest";
import { callJson, createTenant, expectProblem, PASSWORD } from "../../helpers/harness";

const fromIp = (ip: string) => ({ "CF-Connecting-IP": ip });

describe("rate limits (Durable Object, shared by every isolate)", () => {
  it("stops password guessing on one account after 10 attempts, with Retry-After", async () => {
    // The harness's own sign-in of this member is the first of the 10 attempts.
    const member = await (await createTenant()).member("warga");
    for (let i = 0; i < 9; i++) {
      const res = await callJson("/api/auth/login", {
        body: { email: member.email, password: `salah-${i}` },
      });
      expectProblem(res, 401, "invalid_credentials");
    }
    // Even the right password waits now: the limit counts attempts, not failures.
    const limited = await callJson("/api/auth/login", { body: { email: member.email, password: PASSWORD } });
    expectProblem(limited, 429, "rate_limited");
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
  });

  it("limits one IP spraying many accounts", async () => {
    const ip = "203.0.113.7";
    let last: Awaited<ReturnType<typeof callJson>> | undefined;
    for (let i = 0; i < 31; i++) {
      last = await callJson("/api/auth/magic-link", {
        body: { email: `semprot-${i}@warga.test` },
        headers: fromIp(ip),
      });
      if (i < 30) {
        expect(last.status).toBe(202);
      }
    }
    expectProblem(last as Awaited<ReturnType<typeof callJson>>, 429, "rate_limited");
    // Another address is not affected.
    expect(
      (
        await callJson("/api/auth/magic-link", {
          body: { email: "lain@warga.test" },
          headers: fromIp("203.0.113.8"),
        })
      ).status,
    ).toBe(202);
  });

  it("limits reset emails to one inbox, known or not, the same way", async () => {
    for (let i = 0; i < 5; i++) {
      expect(
        (await callJson("/api/auth/forgot-password", { body: { email: "banjir@warga.test" } })).status,
      ).toBe(202);
    }
    const res = await callJson("/api/auth/forgot-password", { body: { email: "Banjir@Warga.test" } });
    expectProblem(res, 429, "rate_limited");
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
  });

  it("limits the public application form per IP", async () => {
    const tenant = await createTenant();
    const ip = "198.51.100.23";
    for (let i = 0; i < 20; i++) {
      const res = await callJson(`/api/public/tenants/${tenant.slug}/applications`, {
        headers: fromIp(ip),
        body: {
          fullName: "Pelamar",
          whatsapp: `0812330000${String(i).padStart(2, "0")}`,
          block: "C",
          houseNumber: String(i),
        },
      });
      expect(res.status).toBe(202);
    }
    const res = await callJson(`/api/public/tenants/${tenant.slug}/applications`, {
      headers: fromIp(ip),
      body: { fullName: "Pelamar", whatsapp: "081233000099", block: "C", houseNumber: "99" },
    });
    expectProblem(res, 429, "rate_limited");
  });
});
