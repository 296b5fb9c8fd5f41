import { env } from "cloudflare:workers";
import { exportPKCS8, generateKeyPair } from "jose";
import { afterEach, beforeAll, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { type KeylessRun, runKeyless, type Shape } from "./helpers/keylessSim";

// Fault suite for the providers that take no idempotency key (issue 34): the Fonnte-like WhatsApp
// gateway, the WhatsApp Cloud API and FCM HTTP v1. Each message meets a seeded answer per call: accepted,
// throttled (with Retry-After where the provider sends one), a server error, a permanent refusal, an answer
// slower than the attempt's deadline or than the claim's lease (having acted or not), or a takeover: the
// provider hangs on the first request, a second consumer claims the message after the lease and gets a
// 503, and the first answer (accepted) comes back to a consumer that lost its claim. The test plays the
// queue (no duplicates or crashes here; faults.test.ts has those) and the deadline's timer on a virtual
// clock. Nothing waits on the wall clock.

let privatePem: string;
beforeAll(async () => {
  privatePem = await exportPKCS8((await generateKeyPair("RS256", { extractable: true })).privateKey);
});

function audit(run: KeylessRun) {
  const { problems } = run;
  const tally = {
    sent: 0,
    failed: 0,
    parked: 0,
    dead: 0,
    duplicates: 0,
    claimLost: 0,
    adopted: 0,
    faults: 0,
  };
  for (const row of run.rows) {
    const calls = run.calls.get(row.recipient) ?? [];
    const log = run.attempts.filter((a) => a.message_id === row.id);
    const accepted = run.accepted.get(row.recipient) ?? 0;
    tally.faults += calls.filter((c) => c.shape !== "accept").length;
    if (accepted > 1) {
      tally.duplicates += 1;
      problems.push(`${row.recipient}: the provider accepted ${accepted} sends`);
    }
    if (!["sent", "failed", "dead"].includes(row.status)) {
      problems.push(`${row.id}: stuck in ${row.status}`);
      continue;
    }
    const unknown = log.filter((a) => a.outcome === "unknown");
    const adopted = log.filter((a) => a.outcome === "sent" && a.provider_status === null);
    tally.claimLost += log.filter((a) => a.outcome === "claim_lost").length;
    tally.adopted += adopted.length;
    // One log row per provider call, in order, with what the provider answered (null: no answer).
    const seen = JSON.stringify(calls.map((c) => c.seen));
    const recorded = JSON.stringify(log.filter((a) => !adopted.includes(a)).map((a) => a.provider_status));
    if (seen !== recorded || row.attempts !== log.length) {
      problems.push(`${row.id}: provider answered ${seen}, log says ${recorded} over ${row.attempts} claims`);
    }
    const slowIndex = calls.findIndex((c) => c.timedOut);
    if (slowIndex !== -1) {
      // A timed-out call is never followed by another send: the message is parked for an operator.
      if (slowIndex !== calls.length - 1 || row.status !== "dead" || unknown.length !== 1) {
        problems.push(
          `${row.id}: after a timeout: ${calls.length} calls, ${row.status}, ${unknown.length} unknown`,
        );
      }
      tally.parked += 1;
    }
    if (row.status === "sent") {
      tally.sent += 1;
      if (accepted !== 1) {
        problems.push(`${row.id}: sent, the provider accepted ${accepted}`);
      }
    } else if (row.status === "failed") {
      tally.failed += 1;
      if (accepted !== 0 || calls.at(-1)?.shape !== "permanent") {
        problems.push(`${row.id}: failed after ${calls.map((c) => c.shape)}`);
      }
    } else if (slowIndex === -1) {
      tally.dead += 1;
      if (accepted !== 0) {
        problems.push(`${row.id}: dead, but the provider accepted it`);
      }
    }
    const superseded = calls.filter((c) => c.superseded).length;
    if (superseded !== log.filter((a) => a.outcome === "claim_lost").length) {
      problems.push(`${row.id}: ${superseded} answers after a takeover, log ${log.map((a) => a.outcome)}`);
    }
  }
  return tally;
}

let consoleError: MockInstance;
beforeEach(() => {
  consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => consoleError.mockRestore());

describe("keyless providers under faults", () => {
  for (const kind of ["gateway", "cloud", "fcm"] as const) {
    it(`${kind}: 120 messages, at most one accepted send each, a log that matches the calls one for one`, async () => {
      const run = await runKeyless(kind, 120, privatePem);
      const tally = audit(run);
      expect(run.problems).toEqual([]);
      expect(tally.duplicates).toBe(0);
      expect(tally.sent + tally.failed + tally.parked + tally.dead).toBe(120);
      const all = [...run.calls.values()].flat();
      const count = (shape: Shape) => all.filter((c) => c.shape === shape && !c.rival).length;
      // The faults happened, so the audit had something to catch.
      for (const shape of [
        "throttle",
        "server",
        "permanent",
        "slow_unsent",
        "slow_accepted",
        "slow_past_lease",
      ] as const) {
        expect(count(shape), shape).toBeGreaterThanOrEqual(1);
      }
      expect(run.stats.timeouts).toBe(
        count("slow_unsent") + count("slow_accepted") + count("slow_past_lease"),
      );
      expect(tally.parked).toBe(run.stats.timeouts);
      expect(run.stats.takeovers).toBeGreaterThanOrEqual(2);
      expect(tally.claimLost).toBe(run.stats.takeovers);
      // Every takeover's accepted answer finished its message from the log, with no second send.
      expect(tally.adopted).toBe(run.stats.takeovers);
      if (kind !== "cloud") {
        expect(run.stats.retryAfterChecked).toBeGreaterThanOrEqual(1);
      }
      if (kind === "fcm") {
        // UNREGISTERED tokens stop being targeted; INVALID_ARGUMENT leaves the token alone.
        const unregistered = new Set(
          all.filter((c) => c.shape === "permanent" && c.seen === 404).map((c) => c.recipient),
        );
        expect(unregistered.size).toBeGreaterThanOrEqual(1);
        const { results } = await env.NOTIFY_DB.prepare(
          "SELECT token, active FROM devices WHERE token LIKE 'tok-keyless-%'",
        ).all<{ token: string; active: number }>();
        for (const device of results) {
          expect(device.active === 0, device.token).toBe(unregistered.has(device.token));
        }
      }
      console.log(
        `[faults:${kind}] 120 messages, ${all.length} provider calls, ${tally.faults} injected faults ` +
          `(${run.stats.timeouts} timeouts, ${run.stats.takeovers} takeovers), ${tally.sent} sent / ` +
          `${tally.failed} failed / ${tally.dead} dead / ${tally.parked} parked unknown, ` +
          `${tally.claimLost} lost claims, ${tally.duplicates} duplicates`,
      );
    }, 120_000);
  }
});
