import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RateLimiter } from "../../../src/durable/RateLimiter";
import { LOGIN_FAILURES } from "../../../src/modules/identity/limits";
import { bindings, callJson, createTenant, expectProblem, insertUser, PASSWORD } from "../../helpers/harness";

const fromIp = (ip: string) => ({ "CF-Connecting-IP": ip });
const login = (body: Record<string, unknown>, headers: Record<string, string>) =>
  callJson("/api/auth/login", { body, headers });

describe("rate limits (Durable Object, shared by every isolate)", () => {
  it("counts wrong passwords per account: its email and WhatsApp number share one budget", async () => {
    const number = `62813${Date.now().toString().slice(-7)}`;
    const account = await insertUser({ whatsapp: number });
    const ip = fromIp("192.0.2.10");
    for (let i = 0; i < 5; i++) {
      expectProblem(
        await login({ email: account.email, password: `salah-${i}` }, ip),
        401,
        "invalid_credentials",
      );
      expectProblem(
        await login({ whatsapp: `0${number.slice(2)}`, password: `salah-wa-${i}` }, ip),
        401,
        "invalid_credentials",
      );
    }
    // Ten failures in all, five per identifier: the eleventh attempt waits, whichever identifier it uses.
    const limited = await login({ whatsapp: `0${number.slice(2)}`, password: PASSWORD }, ip);
    expectProblem(limited, 429, "rate_limited");
    const retryAfter = Number(limited.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LOGIN_FAILURES.baseDelaySeconds);
    expectProblem(await login({ email: account.email, password: PASSWORD }, ip), 429, "rate_limited");
  });

  it("does not let an attacker's failures lock the owner out: the right password from another address gets in", async () => {
    const account = await (await createTenant()).member("warga");
    const attacker = fromIp("192.0.2.20");
    for (let i = 0; i < LOGIN_FAILURES.threshold; i++) {
      expectProblem(
        await login({ email: account.email, password: `tebak-${i}` }, attacker),
        401,
        "invalid_credentials",
      );
    }
    // The guessing address waits even with the right password …
    expectProblem(await login({ email: account.email, password: PASSWORD }, attacker), 429, "rate_limited");
    // … the owner elsewhere does not, and a wrong password there is still only a 401.
    const owner = fromIp("192.0.2.21");
    expect((await login({ email: account.email, password: PASSWORD }, owner)).status).toBe(200);
    const other = fromIp("192.0.2.22");
    expectProblem(
      await login({ email: account.email, password: "keliru" }, other),
      401,
      "invalid_credentials",
    );
  });

  it("makes the guessing address wait longer after every further failure, known account or not", async () => {
    const known = await insertUser({});
    for (const email of [known.email, `tak-ada-${Date.now()}@warga.test`]) {
      const attacker = fromIp(`192.0.2.${email === known.email ? 30 : 40}`);
      for (let i = 0; i < LOGIN_FAILURES.threshold; i++) {
        expectProblem(await login({ email, password: `tebak-${i}` }, attacker), 401, "invalid_credentials");
      }
      const waits: number[] = [];
      for (let round = 0; round < 3; round++) {
        const refused = await login({ email, password: "lagi" }, attacker);
        expectProblem(refused, 429, "rate_limited");
        waits.push(Number(refused.headers.get("Retry-After")));
        // One more failure, from an address that has not failed yet (let through, and counted).
        const helper = fromIp(`198.18.${email === known.email ? 1 : 2}.${round}`);
        expectProblem(await login({ email, password: `bantu-${round}` }, helper), 401, "invalid_credentials");
      }
      expect(waits[0]).toBeLessThanOrEqual(LOGIN_FAILURES.baseDelaySeconds);
      expect(waits[1]).toBeGreaterThan(LOGIN_FAILURES.baseDelaySeconds);
      expect(waits[2]).toBeGreaterThan(2 * LOGIN_FAILURES.baseDelaySeconds);
    }
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

describe("the RateLimiter object itself (ADR 0015: cheap per call, and it survives its own clean-up)", () => {
  const limiter = (name: string) => {
    const ns = bindings.RATE_LIMITER;
    return ns.get(ns.idFromName(`${name}:${Date.now()}:${Math.random()}`));
  };

  it("keeps counting after its clean-up alarm ran while the object stayed in memory", async () => {
    const stub = limiter("cleanup");
    expect((await stub.hit(2, 60)).allowed).toBe(true);
    // The alarm (due a window after the last hit) empties the object; the same instance is hit again.
    await runInDurableObject(stub, (object: RateLimiter) => object.alarm());
    expect(await stub.hit(2, 60)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await stub.hit(2, 60)).toMatchObject({ allowed: true, remaining: 0 });
    expect((await stub.hit(2, 60)).allowed).toBe(false);
    const account = limiter("cleanup-failures");
    const first = await account.attempt("ip-a", LOGIN_FAILURES);
    await runInDurableObject(account, (object: RateLimiter) => object.alarm());
    const again = await account.attempt("ip-a", LOGIN_FAILURES);
    expect(again.allowed).toBe(true);
    await account.succeeded(again.attemptId, "ip-a");
    expect(first.allowed).toBe(true);
  });

  it("writes its clean-up alarm once per window, never before the newest row has left the window", async () => {
    const stub = limiter("alarm");
    const alarmOf = () => runInDurableObject(stub, (_: RateLimiter, state) => state.storage.getAlarm());
    const started = Date.now();
    await stub.hit(100, 60);
    const first = await alarmOf();
    expect(first).toBeGreaterThanOrEqual(started + 60_000 + 1000);
    for (let i = 0; i < 5; i++) {
      await stub.hit(100, 60);
    }
    // Not moved by later hits inside the window, and still after every hit's window has ended.
    expect(await alarmOf()).toBe(first);
    expect(first).toBeGreaterThanOrEqual(Date.now() + 60_000 + 1000);
    // Per-IP counters never create the failures table.
    const tables = await runInDurableObject(stub, (_: RateLimiter, state) =>
      [
        ...state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'"),
      ].map((r) => r.name),
    );
    expect(tables).toContain("hits");
    expect(tables).not.toContain("failures");
  });
});
