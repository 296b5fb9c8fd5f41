import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { PollTally } from "../../../src/durable/PollTally";
import { tenantD1, withTrigger } from "../../helpers/d1";
import { createTenant, expectProblem, type TestTenant } from "../../helpers/harness";
import { deliverMirror, openPoll, vote } from "./helpers";

/**
 * Issue 12, faults: the PollTally object is the authority for ballots, so a restart between (or after
 * a failed mirror of) ballots must lose none of them, and the tenant database's mirror must catch up.
 */

const stubOf = (tenant: TestTenant, pollId: string) =>
  env.POLL_TALLY.get(env.POLL_TALLY.idFromName(`${tenant.slug}:${pollId}`));

type Marked = PollTally & { restartMarker?: string };

/**
 * Resets the object as the runtime does when it evicts or crashes it: in-memory state goes, storage
 * stays. The marker proves the next call meets a new instance.
 */
async function restart(tenant: TestTenant, pollId: string) {
  await runInDurableObject(stubOf(tenant, pollId), (tally: Marked) => {
    tally.restartMarker = "old instance";
  });
  await runInDurableObject(stubOf(tenant, pollId), (_tally: Marked, state) => {
    state.abort("restart for the test");
  }).catch(() => undefined);
  expect(
    await runInDurableObject(stubOf(tenant, pollId), (tally: Marked) => tally.restartMarker ?? null),
  ).toBeNull();
}

async function mirrorRow(tenant: TestTenant, pollId: string) {
  const row = await tenantD1(tenant)
    .prepare("SELECT results, ballots FROM polls WHERE id = ?")
    .bind(pollId)
    .first<{ results: string; ballots: number }>();
  const voters = await tenantD1(tenant)
    .prepare("SELECT COUNT(*) AS n FROM poll_voters WHERE poll_id = ?")
    .bind(pollId)
    .first<{ n: number }>();
  return { counts: JSON.parse(row?.results ?? "null"), ballots: row?.ballots, voters: voters?.n };
}

describe("a PollTally restarted mid-vote", () => {
  it("loses no ballot, and the mirror catches up", async () => {
    const tenant = await createTenant();
    const [a, b, c] = await tenant.members("warga", 3);
    const { poll } = await openPoll(tenant);
    const [sabtu, minggu] = poll.options.map((o) => o.id) as [string, string];

    expect((await vote(a?.token ?? "", poll.id, [sabtu])).status).toBe(200);
    await deliverMirror(tenant, poll.id);
    expect((await mirrorRow(tenant, poll.id)).ballots).toBe(1);
    await restart(tenant, poll.id);

    // The tenant database refuses the copy of b's ballot: the vote still answers 200 (the object holds
    // it), the copy fails, and its retry is left in storage (the alarm), not in the lost instance.
    const second = await withTrigger(
      tenantD1(tenant),
      `fail_mirror_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE UPDATE ON polls WHEN OLD.id = '${poll.id}' BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      async () => {
        const res = await vote(b?.token ?? "", poll.id, [minggu]);
        await deliverMirror(tenant, poll.id);
        await restart(tenant, poll.id);
        return res;
      },
    );
    expect(second.status).toBe(200);
    expect((await mirrorRow(tenant, poll.id)).ballots).toBe(1);
    const retryAt = await runInDurableObject(stubOf(tenant, poll.id), (_t: PollTally, state) =>
      state.storage.getAlarm(),
    );
    expect(retryAt).not.toBeNull();
    expect(retryAt ?? 0).toBeLessThan(new Date(poll.endsAt).getTime());

    await deliverMirror(tenant, poll.id);
    expect(await mirrorRow(tenant, poll.id)).toMatchObject({ ballots: 2, voters: 2 });
    // Once it landed, the alarm is back at endsAt, to close the poll.
    expect(
      await runInDurableObject(stubOf(tenant, poll.id), (_t: PollTally, state) => state.storage.getAlarm()),
    ).toBe(new Date(poll.endsAt).getTime());

    await restart(tenant, poll.id);
    expectProblem(await vote(a?.token ?? "", poll.id, [minggu]), 409, "already_voted");
    const third = await vote(c?.token ?? "", poll.id, [minggu]);
    expect(third.status).toBe(200);
    expect(third.body.results?.map((r) => r.count)).toEqual([1, 2]);
    expect(third.body.turnout.ballots).toBe(3);
    await deliverMirror(tenant, poll.id);

    await restart(tenant, poll.id);
    const snapshot = await runInDurableObject(stubOf(tenant, poll.id), (tally: PollTally) =>
      tally.snapshot(),
    );
    expect(snapshot).toMatchObject({ ballots: 3, counts: { [sabtu]: 1, [minggu]: 2 } });
    expect(await mirrorRow(tenant, poll.id)).toEqual({ counts: snapshot.counts, ballots: 3, voters: 3 });
  });
});
