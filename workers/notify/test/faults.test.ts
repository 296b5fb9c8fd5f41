import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { type ProviderCall, type Shape, SLOW_SHAPES } from "./helpers/fakeResend";
import { adopted, config, FINAL, MAX_ATTEMPTS, permanent, type Run, runScenario } from "./helpers/queueSim";

// Standing fault suite (issue 12). Emails go through the real consumer against a Resend-shaped fake that
// fails a seeded 20% of calls transiently (500 application_error / internal_server_error, 429 with
// Retry-After, connection lost before or after the provider acted) and refuses 5% of recipients for good
// (400/403 validation_error). The queue, played by helpers/queueSim.ts, delivers some messages twice (in
// one batch, in a concurrent batch, later) and kills the consumer's isolate mid-batch now and then, then
// redelivers the whole batch. Every retry delay is checked where the consumer asks for it; no sleeping.
// Issue 34 adds providers slower than the attempt's deadline (answering after 40 s) and slower than the
// claim's lease (130 s), having acted or not; 409 concurrent_idempotent_requests; and a second consumer
// taking a message over while the first call is still open, so the first finds its claim lost at the
// finish. The deadline's timer is played by the test, so a 25 s timeout takes no wall-clock time.

// Every message against what the provider saw and what the delivery log says.
function audit(run: Run) {
  const { problems, fake } = run;
  const tally = {
    sent: 0,
    failed: 0,
    dead: 0,
    replays: 0,
    doubleSends: 0,
    claimLost: 0,
    timedOut: 0,
    adopted: 0,
  };
  for (const id of run.ids) {
    const to = run.recipientOf.get(id) ?? "";
    const row = run.finalRows.get(id);
    const log = run.log.get(id) ?? [];
    const calls: ProviderCall[] = fake.calls.get(id) ?? [];
    const logged = calls.filter((c) => !c.unlogged);
    const inbox = fake.inbox.get(to)?.length ?? 0;
    const status = row?.status ?? "missing";
    // The provider accepted on a call whose 200 this message's holder never heard: the isolate died, the
    // deadline fired, or the claim was lost by the time it came.
    const lostAcceptance = calls.some((c) => c.created && (c.unlogged || c.seen !== 200 || c.superseded));
    tally.replays += calls.filter((c) => c.replayed).length;
    tally.timedOut += calls.filter((c) => c.timedOut).length;
    tally.claimLost += log.filter((a) => a.outcome === "claim_lost").length;
    tally.adopted += log.filter(adopted).length;

    if (!FINAL.has(status)) {
      problems.push(`${id}: stuck in ${status}`);
      continue;
    }
    tally[status as "sent" | "failed" | "dead"] += 1;
    if (inbox > 1) {
      tally.doubleSends += 1;
      problems.push(`${to}: received ${inbox} emails`);
    }
    const loggedSuccess = calls.findIndex((c) => c.seen === 200 && !c.unlogged && !c.superseded);
    if (loggedSuccess !== -1 && loggedSuccess !== calls.length - 1) {
      problems.push(`${id}: provider called again after a logged 200`);
    }
    if (status === "sent") {
      const heard =
        log.at(-1) && adopted(log.at(-1) as (typeof log)[number]) ? true : calls.at(-1)?.seen === 200;
      if (inbox !== 1 || row?.provider_message_id !== fake.emailId(id) || !heard) {
        problems.push(`${id}: sent, inbox ${inbox}, provider id ${row?.provider_message_id}`);
      }
    } else if (inbox > 0 && !(status === "dead" && lostAcceptance)) {
      // The one excuse: the provider accepted it on a call whose answer its holder never heard, and the
      // retries ran out before a later call heard the replayed 200. An operator's retry reuses the key.
      problems.push(`${id}: ${status} but delivered`);
    }
    if (status === "failed") {
      const refusals = logged.filter(permanent);
      if (!run.refused.has(to) || refusals.length !== 1 || logged.at(-1) !== refusals[0]) {
        problems.push(`${id}: failed after ${logged.map((c) => c.seen)}`);
      }
      if (log.length >= MAX_ATTEMPTS) {
        problems.push(`${id}: a permanent refusal used all ${log.length} attempts`);
      }
    }
    if (run.refused.has(to) && status === "sent") {
      problems.push(`${id}: refused recipient ends sent`);
    }
    if (run.hopeless.has(to) && status !== "dead") {
      problems.push(`${id}: hopeless recipient ends ${status}`);
    }

    // The delivery log and the provider agree call for call, except calls whose isolate died first.
    const seen = JSON.stringify(logged.map((c) => c.seen));
    const recorded = JSON.stringify(log.filter((a) => !adopted(a)).map((a) => a.provider_status));
    if (seen !== recorded) {
      problems.push(`${id}: provider answered ${seen}, log says ${recorded}`);
    }
    const interrupted = run.interrupted.get(id) ?? 0;
    if (row?.attempts !== log.length + interrupted || calls.length - logged.length > interrupted) {
      problems.push(`${id}: ${row?.attempts} claims, ${log.length} logged, ${calls.length} calls`);
    }
    // A lost claim is logged exactly where a call answered a consumer that no longer held the message.
    const superseded = logged.filter((c) => c.superseded).length;
    const lost = log.filter((a) => a.outcome === "claim_lost").length;
    if (superseded !== lost) {
      problems.push(`${id}: ${superseded} answers after a takeover, ${lost} claim_lost attempts`);
    }
    const numbers = log.map((a) => a.attempt);
    if (numbers.some((n, i) => i > 0 && n <= (numbers[i - 1] ?? 0))) {
      problems.push(`${id}: attempt numbers ${numbers}`);
    }
    const outcomes = log.map((a) => a.outcome);
    const last = outcomes.at(-1);
    const lastOk =
      log.length === 0
        ? status === "dead"
        : status === "dead"
          ? last === "dead" || last === "retrying"
          : last === status;
    if (!lastOk || outcomes.slice(0, -1).some((o) => o !== "retrying" && o !== "claim_lost")) {
      problems.push(`${id}: ${status} with outcomes ${outcomes}`);
    }
  }
  return tally;
}

let consoleError: MockInstance;
beforeEach(() => {
  // The consumer logs each failure of its own (the dying isolate); hundreds of lines would hide the result.
  consoleError = vi.spyOn(console, "error").mockImplementation(() => {});
});
afterEach(() => consoleError.mockRestore());

describe("delivery under faults", () => {
  it("runs with the configuration the assertions assume", () => {
    expect([config.maxAttempts, config.retryBaseSeconds, config.retryMaxSeconds]).toEqual([6, 10, 900]);
    expect(config.email?.provider).toBe("http");
  });

  it("ends 300 emails sent, failed or dead, each delivered at most once, with a log that matches the provider", async () => {
    const run = await runScenario({
      name: "faults",
      messages: 300,
      transientRate: 0.2,
      refusedRate: 0.05,
      hopeless: 3,
      duplicateRate: 0.06,
      crashEvery: 12,
      honoursIdempotencyKey: true,
      slowRate: 0.06,
      concurrentRate: 0.02,
      rivalRate: 0.02,
    });
    const tally = audit(run);
    expect(run.problems).toEqual([]);
    expect(run.fake.bodyMismatches).toEqual([]);
    expect(tally.sent + tally.failed + tally.dead).toBe(300);
    expect(tally.doubleSends).toBe(0);
    // The code classifies a documented 4xx as permanent: `failed` on the first refusal, no retries.
    expect(tally.failed).toBe(run.refused.size);

    // The faults really happened, so the assertions above had something to catch.
    const calls = [...run.fake.calls.values()].flat();
    const ordinary = calls.filter((c) => c.shape !== "hopeless" && !c.rival);
    const firstSuite: Shape[] = [
      "application_error",
      "internal_server_error",
      "rate_limit_exceeded",
      "timeout_before",
      "timeout_after",
    ];
    const transientShare = ordinary.filter((c) => firstSuite.includes(c.shape)).length / ordinary.length;
    expect(transientShare).toBeGreaterThan(0.15);
    expect(transientShare).toBeLessThan(0.25);
    expect(run.stats.crashes).toBeGreaterThanOrEqual(3);
    expect(run.stats.crashesMidSend).toBeGreaterThanOrEqual(1);
    expect(calls.filter((c) => c.unlogged).length).toBeGreaterThanOrEqual(1);
    expect(run.stats.duplicatesSameBatch).toBeGreaterThanOrEqual(1);
    expect(run.stats.duplicatesParallel).toBeGreaterThanOrEqual(1);
    expect(run.stats.duplicatesLater).toBeGreaterThanOrEqual(1);
    expect(run.stats.held).toBeGreaterThanOrEqual(1);
    expect(run.stats.deadLettered).toBeGreaterThanOrEqual(run.hopeless.size);
    expect(tally.dead).toBeGreaterThanOrEqual(run.hopeless.size);
    expect(tally.replays).toBeGreaterThanOrEqual(1);

    // Issue 34: each new fault happened, and what the consumer made of it.
    const shapes = (shape: Shape) => calls.filter((c) => c.shape === shape);
    const slow = calls.filter((c) => SLOW_SHAPES.has(c.shape));
    expect(slow.length).toBeGreaterThanOrEqual(10);
    for (const shape of ["slow_unsent", "slow_accepted", "slow_past_lease"] as const) {
      expect(shapes(shape).length).toBeGreaterThanOrEqual(2);
    }
    // Every slow call was cut off by the deadline, none waited for the answer.
    expect(slow.every((c) => c.timedOut && c.seen === null)).toBe(true);
    expect(run.stats.timeouts).toBe(slow.length);
    // A retry that came while the first request was still being worked on was told 409 and came back.
    expect(shapes("concurrent_409").filter((c) => !c.rival).length).toBeGreaterThanOrEqual(3);
    expect(run.stats.rivals).toBeGreaterThanOrEqual(2);
    expect(tally.claimLost).toBe(calls.filter((c) => c.superseded && !c.unlogged).length);
    expect(tally.claimLost).toBeGreaterThanOrEqual(2);
    // The next holder finished those from the log (the rival's own call was told 409 and came back).
    expect(tally.adopted).toBeGreaterThanOrEqual(1);
    const unknown = [...run.log.values()].flat().filter((a) => a.outcome === "unknown");
    // Resend takes an idempotency key: a timed-out call is retried with it, never parked.
    expect(unknown).toEqual([]);

    const injected =
      calls.filter((c) => c.shape !== "accept").length +
      run.stats.crashes +
      run.stats.duplicatesSameBatch +
      run.stats.duplicatesParallel +
      run.stats.duplicatesLater;
    console.log(
      `[faults] 300 emails, ${calls.length} provider calls, ${injected} injected faults (${slow.length} slow, ` +
        `${shapes("concurrent_409").length} concurrent 409, ${run.stats.rivals} takeovers, ${run.stats.crashes} crashes), ` +
        `${tally.claimLost} lost claims (${tally.adopted} finished from the log), ${tally.sent} sent / ${tally.failed} failed / ${tally.dead} dead, ` +
        `${tally.doubleSends} duplicates`,
    );
  }, 120_000);

  it("sees the double sends when the provider ignores the Idempotency-Key (the audit can fail)", async () => {
    const run = await runScenario({
      name: "control",
      messages: 40,
      transientRate: 0.2,
      refusedRate: 0.05,
      hopeless: 1,
      duplicateRate: 0.06,
      crashEvery: 3,
      honoursIdempotencyKey: false,
    });
    const tally = audit(run);
    expect(tally.doubleSends).toBeGreaterThan(0);
    expect(run.problems.some((p) => p.includes("received 2 emails"))).toBe(true);
  }, 120_000);
});
