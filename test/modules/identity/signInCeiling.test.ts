import { describe, expect, it } from "vitest";
import {
  addressBlock,
  identityRateLimit,
  LOGIN_CEILING,
  LOGIN_FAILURES,
} from "../../../src/modules/identity/limits";
import { bindings, callJson, createTenant, expectProblem, PASSWORD } from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";

/**
 * Issue 31, N1: guesses on one account no longer scale with the attacker's addresses. Past the
 * account-wide ceiling every address waits, the owner is told with a one-tap sign-in link, and the
 * per-address limit counts an IPv6 address as its /64.
 */
const login = (body: Record<string, unknown>, ip: string) =>
  callJson("/api/auth/login", { body, headers: { "CF-Connecting-IP": ip } });

describe("addressBlock", () => {
  it("keeps IPv4 and names an IPv6 address by its /64", () => {
    expect(addressBlock("203.0.113.9")).toBe("203.0.113.9");
    expect(addressBlock(null)).toBeNull();
    expect(addressBlock("2001:db8:0a:b::1")).toBe("2001:db8:a:b::/64");
    expect(addressBlock("2001:DB8:A:B:ffff:1:2:3")).toBe("2001:db8:a:b::/64");
    expect(addressBlock("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBlock("::1")).toBe("0:0:0:0::/64");
    expect(addressBlock("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressBlock("::ffff:192.0.2.7")).toBe("192.0.2.7");
    expect(addressBlock("not:an:address")).toBe("not:an:address");
  });
});

describe("the account-wide sign-in ceiling", () => {
  it("answers 429 to fresh addresses too once one account has had its fill of wrong passwords", async () => {
    const owner = await (await createTenant()).member("bendahara");
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) {
      const res = await login({ email: owner.email, password: `tebak-${i}` }, `198.51.100.${100 + i}`);
      statuses.push(res.status);
    }
    expect(LOGIN_CEILING.threshold).toBeGreaterThan(LOGIN_FAILURES.threshold);
    expect(statuses.slice(0, LOGIN_CEILING.threshold)).toEqual(Array(LOGIN_CEILING.threshold).fill(401));
    expect(statuses.slice(LOGIN_CEILING.threshold)).toEqual(Array(25 - LOGIN_CEILING.threshold).fill(429));
    // The right password from yet another address waits as well: a guess must not be told apart.
    const right = await login({ email: owner.email, password: PASSWORD }, "198.51.100.200");
    expectProblem(right, 429, "rate_limited");
    expect(Number(right.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(right.headers.get("Retry-After"))).toBeLessThanOrEqual(LOGIN_CEILING.baseDelaySeconds);

    // The owner is told once, by email, with a one-tap sign-in link that still works.
    const told = (await queuedMessages({ recipient: owner.email })).filter((m) =>
      String(m.subject).includes("mencurigakan"),
    );
    expect(told).toHaveLength(1);
    const link = /token=([A-Za-z0-9_-]+)/.exec(JSON.stringify(told[0]?.payload))?.[1];
    expect(link).toBeTruthy();
    const signedIn = await callJson("/api/auth/magic-link/verify", { body: { token: link } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ accessToken: expect.any(String) });
  });

  it("does not count an address that is already waiting against the account", async () => {
    const owner = await (await createTenant()).member("warga");
    for (let i = 0; i < LOGIN_FAILURES.threshold; i++) {
      expect((await login({ email: owner.email, password: `x-${i}` }, "192.0.2.90")).status).toBe(401);
    }
    // Hammering from the address that failed is refused there, before the account-wide count.
    for (let i = 0; i < 20; i++) {
      expect((await login({ email: owner.email, password: `y-${i}` }, "192.0.2.90")).status).toBe(429);
    }
    expect((await login({ email: owner.email, password: PASSWORD }, "192.0.2.91")).status).toBe(200);
  });

  it("counts an IPv6 /64 as one address for the per-address limit", async () => {
    // The per-address budget of one /64, filled as a hundred sign-ins from it would fill it.
    for (let i = 0; i < 100; i++) {
      await identityRateLimit(bindings, [{ policy: "login:ip", subject: addressBlock("2001:db8:31:1::1") }]);
    }
    const elsewhereInPrefix = "2001:db8:31:1:ab:cd:ef:1";
    expectProblem(
      await login({ email: "lain@warga.test", password: "salah" }, elsewhereInPrefix),
      429,
      "rate_limited",
    );
    expect((await login({ email: "lain@warga.test", password: "salah" }, "2001:db8:31:2::1")).status).toBe(
      401,
    );
  });
});
