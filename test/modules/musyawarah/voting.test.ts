import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { PollTally } from "../../../src/durable/PollTally";
import { tenantD1 } from "../../helpers/d1";
import { bindings, callJson, createTenant, expectProblem, type TestTenant } from "../../helpers/harness";
import { deliverMirror, inMinutes, openPoll, type PollBody, vote } from "./helpers";

function stubOf(tenant: TestTenant, pollId: string) {
  return env.POLL_TALLY.get(env.POLL_TALLY.idFromName(`${tenant.slug}:${pollId}`));
}

async function mirroredRow(tenant: TestTenant, pollId: string) {
  const db = (bindings as unknown as Record<string, D1Database>)[
    `TENANT_DB_${String(tenant.slot).padStart(2, "0")}`
  ];
  return db
    ?.prepare("SELECT status, results, ballots, results_seq AS seq FROM polls WHERE id = ?")
    .bind(pollId)
    .first<{ status: string; results: string; ballots: number; seq: number }>();
}

describe("casting ballots", () => {
  it("takes exactly one option unless multiple choice is on", async () => {
    const tenant = await createTenant();
    const [a, b] = await tenant.members("warga", 2);
    const { poll } = await openPoll(tenant);
    const [sabtu, minggu] = poll.options.map((o) => o.id);
    expectProblem(await vote(a?.token ?? "", poll.id, [sabtu ?? "", minggu ?? ""]), 400, "invalid_choice");
    expectProblem(await vote(a?.token ?? "", poll.id, ["01HZZZZZZZZZZZZZZZZZZZZZZZ"]), 400, "invalid_choice");
    expectProblem(
      await callJson(`/api/musyawarah/${poll.id}/vote`, { token: a?.token, body: { optionIds: [] } }),
      400,
      "invalid_input",
    );
    const ok = await vote(a?.token ?? "", poll.id, [minggu ?? ""]);
    expect(ok.status).toBe(200);
    expect(ok.body.results?.map((r) => r.count)).toEqual([0, 1]);
    expectProblem(await vote(a?.token ?? "", poll.id, [sabtu ?? ""]), 409, "already_voted");
    const second = await vote(b?.token ?? "", poll.id, [minggu ?? ""]);
    expect(second.body.results?.map((r) => r.count)).toEqual([0, 2]);
    expect(second.body.turnout.ballots).toBe(2);
  });

  it("accepts 1 to maxChoices distinct options when multiple choice is on", async () => {
    const tenant = await createTenant();
    const [a] = await tenant.members("warga", 1);
    const { poll } = await openPoll(tenant, {
      options: ["Lampu", "Taman", "Pos ronda"],
      multipleChoice: true,
      maxChoices: 2,
    });
    const ids = poll.options.map((o) => o.id);
    const token = a?.token ?? "";
    expectProblem(await vote(token, poll.id, ids), 400, "invalid_choice");
    expectProblem(await vote(token, poll.id, [ids[0] ?? "", ids[0] ?? ""]), 400, "invalid_choice");
    const ok = await vote(token, poll.id, [ids[0] ?? "", ids[2] ?? ""]);
    expect(ok.body.results?.map((r) => r.count)).toEqual([1, 0, 1]);
    expect(ok.body.turnout.ballots).toBe(1);
  });

  it("gives a household one ballot in kk polls, used by the first member to vote", async () => {
    const tenant = await createTenant();
    const [first, second] = await tenant.members("warga", 2, { unitId: "unit-a-1" });
    const [neighbour] = await tenant.members("warga", 1, { unitId: "unit-a-2" });
    const [homeless] = await tenant.members("warga", 1);
    const { poll } = await openPoll(tenant, { voterScope: "kk" });
    expect(poll.turnout.eligibleVoters).toBe(2);
    const option = poll.options[0]?.id ?? "";
    expect((await vote(first?.token ?? "", poll.id, [option])).status).toBe(200);
    expectProblem(await vote(second?.token ?? "", poll.id, [option]), 409, "already_voted");
    expect(
      (await callJson<PollBody>(`/api/musyawarah/${poll.id}`, { token: second?.token })).body.hasVoted,
    ).toBe(true);
    expect((await vote(neighbour?.token ?? "", poll.id, [option])).status).toBe(200);
    expectProblem(await vote(homeless?.token ?? "", poll.id, [option]), 409, "profile_incomplete");
  });

  it("refuses ballots before startsAt, after endsAt, after closing, and from residents who joined later", async () => {
    const tenant = await createTenant();
    const [early] = await tenant.members("warga", 1);
    const future = await openPoll(tenant, { startsAt: inMinutes(30), endsAt: inMinutes(90) });
    expectProblem(
      await vote(early?.token ?? "", future.poll.id, [future.poll.options[0]?.id ?? ""]),
      409,
      "poll_not_started",
    );

    const endsAt = inMinutes(60);
    const soon = await openPoll(tenant, { startsAt: inMinutes(-1), endsAt });
    const [late] = await tenant.members("warga", 1);
    expectProblem(
      await vote(late?.token ?? "", soon.poll.id, [soon.poll.options[0]?.id ?? ""]),
      409,
      "not_eligible",
    );
    const stub = stubOf(tenant, soon.poll.id);
    const afterEnd = await stub.vote({
      voterKey: `user:${early?.id}`,
      userId: early?.id ?? "",
      optionIds: [soon.poll.options[0]?.id ?? ""],
      now: new Date(endsAt).getTime(),
    });
    expect(afterEnd).toEqual({ ok: false, code: "poll_ended" });

    // Before endsAt the alarm is only a mirror retry: the poll stays open and the alarm is set again.
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runInDurableObject(stub, (tally: PollTally) => tally.snapshot())).toMatchObject({
      status: "aktif",
    });
    // At endsAt the alarm closes the poll and mirrors the status to the tenant database. The object runs
    // in this isolate, so moving Date past endsAt moves its clock too; then its alarm is run at once.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(new Date(endsAt).getTime() + 1000);
      expect(await runDurableObjectAlarm(stub)).toBe(true);
    } finally {
      vi.useRealTimers();
    }
    expect((await mirroredRow(tenant, soon.poll.id))?.status).toBe("ditutup");
    const closed = await callJson<PollBody>(`/api/musyawarah/${soon.poll.id}`, { token: early?.token });
    expect(closed.body.status).toBe("ditutup");
    expectProblem(
      await vote(early?.token ?? "", soon.poll.id, [soon.poll.options[0]?.id ?? ""]),
      409,
      "poll_closed",
    );
  });

  it("is for residents only", async () => {
    const tenant = await createTenant();
    const { poll, sekretaris } = await openPoll(tenant);
    expectProblem(await vote(sekretaris.token, poll.id, [poll.options[0]?.id ?? ""]), 403, "forbidden_role");
  });

  it("reports quorum against the voters eligible when the poll opened", async () => {
    const tenant = await createTenant();
    const residents = await tenant.members("warga", 4);
    const { poll } = await openPoll(tenant, { quorum: { kind: "percent", value: 50 } });
    expect(poll.quorumReached).toBe(false);
    await vote(residents[0]?.token ?? "", poll.id, [poll.options[0]?.id ?? ""]);
    const two = await vote(residents[1]?.token ?? "", poll.id, [poll.options[0]?.id ?? ""]);
    expect(two.body.quorumReached).toBe(true);
  });
});

describe("who voted what", () => {
  it("lists voters and their choices for open polls", async () => {
    const tenant = await createTenant();
    const [a] = await tenant.members("warga", 1);
    const { poll, sekretaris } = await openPoll(tenant);
    await vote(a?.token ?? "", poll.id, [poll.options[1]?.id ?? ""]);
    const res = await callJson<{ anonymous: boolean; items: { userId: string; optionIds?: string[] }[] }>(
      `/api/musyawarah/${poll.id}/votes`,
      { token: sekretaris.token },
    );
    expect(res.body.anonymous).toBe(false);
    expect(res.body.items).toEqual([
      expect.objectContaining({ userId: a?.id, optionIds: [poll.options[1]?.id] }),
    ]);
  });

  it("keeps no link between a voter and a choice in anonymous polls", async () => {
    const tenant = await createTenant();
    const [a, b] = await tenant.members("warga", 2);
    const { poll, sekretaris } = await openPoll(tenant, { anonymous: true });
    await vote(a?.token ?? "", poll.id, [poll.options[0]?.id ?? ""]);
    await vote(b?.token ?? "", poll.id, [poll.options[1]?.id ?? ""]);
    const res = await callJson<{ anonymous: boolean; items: Record<string, unknown>[] }>(
      `/api/musyawarah/${poll.id}/votes`,
      {
        token: sekretaris.token,
      },
    );
    expect(res.body.anonymous).toBe(true);
    expect(res.body.items.map((i) => i.userId).sort()).toEqual([a?.id, b?.id].sort());
    expect(res.body.items.every((i) => !("optionIds" in i))).toBe(true);
    const stored = await runInDurableObject(stubOf(tenant, poll.id), (_instance: PollTally, state) =>
      state.storage.sql.exec<{ choices: string | null }>("SELECT choices FROM ballots").toArray(),
    );
    expect(stored).toEqual([{ choices: null }, { choices: null }]);
  });

  it("is for organisers only", async () => {
    const tenant = await createTenant();
    const [a] = await tenant.members("warga", 1);
    const { poll } = await openPoll(tenant);
    expectProblem(
      await callJson(`/api/musyawarah/${poll.id}/votes`, { token: a?.token }),
      403,
      "forbidden_role",
    );
  });
});

describe("concurrency", () => {
  it("counts 200 ballots from distinct residents sent at once", async () => {
    const tenant = await createTenant();
    const residents = await tenant.members("warga", 200);
    const { poll } = await openPoll(tenant, { options: ["A", "B", "C"] });
    const ids = poll.options.map((o) => o.id);
    const results = await Promise.all(residents.map((r, i) => vote(r.token, poll.id, [ids[i % 3] ?? ""])));
    expect(results.filter((r) => r.status === 200)).toHaveLength(200);
    const final = await callJson<PollBody>(`/api/musyawarah/${poll.id}`, { token: residents[0]?.token });
    expect(final.body.results?.map((r) => r.count)).toEqual([67, 67, 66]);
    expect(final.body.turnout.ballots).toBe(200);
    // The votes answered once their ballots were durable in the object; its alarm copies them.
    await deliverMirror(tenant, poll.id);
    const row = await mirroredRow(tenant, poll.id);
    expect(row?.ballots).toBe(200);
    expect(
      Object.values(JSON.parse(row?.results ?? "{}") as Record<string, number>).reduce((a, b) => a + b, 0),
    ).toBe(200);
  });

  it("accepts exactly one of 20 simultaneous ballots from one resident", async () => {
    const tenant = await createTenant();
    const [resident] = await tenant.members("warga", 1);
    const { poll } = await openPoll(tenant);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        vote(resident?.token ?? "", poll.id, [poll.options[i % 2]?.id ?? ""]),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(19);
    for (const r of refused) {
      expectProblem(r, 409, "already_voted");
    }
    const final = await callJson<PollBody>(`/api/musyawarah/${poll.id}`, { token: resident?.token });
    expect(final.body.results?.reduce((n, r) => n + r.count, 0)).toBe(1);
  });

  it("decides the ballots of one call in order, in one transaction, each answer with the counts as of its ballot", async () => {
    const tenant = await createTenant();
    const [a, b] = await tenant.members("warga", 2);
    const { poll } = await openPoll(tenant, { options: ["A", "B"] });
    const [optA, optB] = poll.options.map((o) => o.id);
    const results = await stubOf(tenant, poll.id).voteMany([
      { userId: a?.id ?? "", optionIds: [optA ?? ""] },
      { userId: a?.id ?? "", optionIds: [optB ?? ""] },
      { userId: b?.id ?? "", optionIds: ["no-such-option"] },
      { userId: "not-a-member", optionIds: [optA ?? ""] },
      { userId: b?.id ?? "", optionIds: [optB ?? ""] },
    ]);
    expect(results.map((r) => (r.ok ? { counts: r.counts, ballots: r.ballots } : r.code))).toEqual([
      { counts: { [optA ?? ""]: 1, [optB ?? ""]: 0 }, ballots: 1 },
      "already_voted",
      "invalid_choice",
      "not_eligible",
      { counts: { [optA ?? ""]: 1, [optB ?? ""]: 1 }, ballots: 2 },
    ]);
    const final = await callJson<PollBody>(`/api/musyawarah/${poll.id}`, { token: a?.token });
    expect(final.body.results?.map((r) => r.count)).toEqual([1, 1]);
    expect(final.body.turnout.ballots).toBe(2);
  });

  it("keeps nothing of a call whose transaction failed, in storage or in memory", async () => {
    const tenant = await createTenant();
    const [a, b] = await tenant.members("warga", 2);
    const { poll } = await openPoll(tenant, { options: ["A", "B"] });
    const optA = poll.options[0]?.id ?? "";
    const stub = stubOf(tenant, poll.id);
    // The second ballot of the call makes its INSERT fail, after the first was written in the same transaction.
    await runInDurableObject(stub, (_tally: PollTally, state: DurableObjectState) => {
      state.storage.sql.exec(
        `CREATE TRIGGER refuse_b BEFORE INSERT ON ballots WHEN NEW.user_id = '${b?.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      );
    });
    // Called on the object itself (not over RPC), so the failure is this test's to catch.
    await runInDurableObject(stub, async (tally: PollTally) => {
      await expect(
        tally.voteMany([
          { userId: a?.id ?? "", optionIds: [optA] },
          { userId: b?.id ?? "", optionIds: [optA] },
        ]),
      ).rejects.toThrow(/forced failure/);
    });
    expect(await stub.snapshot()).toMatchObject({ ballots: 0, counts: { [optA]: 0 } });
    await runInDurableObject(stub, (_tally: PollTally, state: DurableObjectState) => {
      state.storage.sql.exec("DROP TRIGGER refuse_b");
    });
    // The first voter's ballot was rolled back with the call: it can be cast again, counted once.
    const again = await stub.vote({ userId: a?.id ?? "", optionIds: [optA] });
    expect(again).toMatchObject({ ok: true, ballots: 1, counts: { [optA]: 1 } });
  });

  it("sends the ballots cast while a call to the tally is in flight together, each voter getting their own answer", async () => {
    const tenant = await createTenant();
    const residents = await tenant.members("warga", 30);
    const { poll } = await openPoll(tenant, { options: ["A", "B"] });
    const ids = poll.options.map((o) => o.id);
    const calls = vi.spyOn(PollTally.prototype, "voteMany");
    try {
      const results = await Promise.all(residents.map((r, i) => vote(r.token, poll.id, [ids[i % 2] ?? ""])));
      expect(results.map((r) => r.status)).toEqual(residents.map(() => 200));
      // Fewer calls than ballots, every ballot in exactly one of them.
      const sizes = calls.mock.calls.map(([ballots]) => ballots.length);
      expect(sizes.length).toBeLessThan(30);
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(30);
      // Each voter's answer is their own: the turnout as of their ballot, 1 to 30, each once.
      const turnouts = results.map((r) => (r.body as PollBody).turnout.ballots).sort((x, y) => x - y);
      expect(turnouts).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    } finally {
      calls.mockRestore();
    }
  });

  it("mirrors absolute counts, so repeating a mirror changes nothing", async () => {
    const tenant = await createTenant();
    const residents = await tenant.members("warga", 3);
    const { poll, sekretaris } = await openPoll(tenant);
    for (const r of residents) {
      await vote(r.token, poll.id, [poll.options[0]?.id ?? ""]);
    }
    await deliverMirror(tenant, poll.id);
    const before = await mirroredRow(tenant, poll.id);
    expect(before?.ballots).toBe(3);
    const stub = stubOf(tenant, poll.id);
    await stub.close();
    await stub.close();
    await callJson(`/api/musyawarah/${poll.id}`, {
      method: "PUT",
      token: sekretaris.token,
      body: { status: "ditutup" },
    });
    const after = await mirroredRow(tenant, poll.id);
    expect(after?.results).toBe(before?.results);
    expect(after?.ballots).toBe(3);
    expect(after?.seq).toBe(before?.seq);
    expect(after?.status).toBe("ditutup");
  });
});

describe("the tally answers the vote alone (ADR 0005)", () => {
  it("answers from the object without the poll's row, and 404 for unknown ids and drafts without writing", async () => {
    const tenant = await createTenant();
    const [a, b] = await tenant.members("warga", 2);
    const { poll, sekretaris } = await openPoll(tenant, { title: "Iuran sampah naik?" });
    // The row is gone from the tenant database: the vote neither reads nor needs it.
    await tenantD1(tenant).prepare("DELETE FROM polls WHERE id = ?").bind(poll.id).run();
    const ok = await vote(a?.token ?? "", poll.id, [poll.options[1]?.id ?? ""]);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      id: poll.id,
      title: "Iuran sampah naik?",
      status: "aktif",
      hasVoted: true,
      turnout: { ballots: 1, eligibleVoters: 2 },
    });
    expect(ok.body.results?.map((r) => r.count)).toEqual([0, 1]);
    expectProblem(await vote(a?.token ?? "", poll.id, [poll.options[0]?.id ?? ""]), 409, "already_voted");

    const unknown = "01HZZZZZZZZZZZZZZZZZZZZZZZ";
    expectProblem(await vote(b?.token ?? "", unknown, [poll.options[0]?.id ?? ""]), 404, "not_found");
    const tables = await runInDurableObject(stubOf(tenant, unknown), (_t: PollTally, state) =>
      state.storage.sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'",
        )
        .toArray(),
    );
    expect(tables).toEqual([]);

    const draft = await callJson<PollBody>("/api/musyawarah", {
      token: sekretaris.token,
      body: { title: "Masih draf", options: ["Ya", "Tidak"], startsAt: inMinutes(-1), endsAt: inMinutes(60) },
    });
    expect(draft.status).toBe(201);
    expectProblem(
      await vote(b?.token ?? "", draft.body.id, [draft.body.options[0]?.id ?? ""]),
      404,
      "not_found",
    );
  });

  it("reads a tally's poll once from the tenant database when it was opened without one", async () => {
    const tenant = await createTenant();
    const [a, b] = await tenant.members("warga", 2);
    const { poll } = await openPoll(tenant, { title: "Lampu jalan" });
    const stub = stubOf(tenant, poll.id);
    // As an earlier version stored it: no poll card in the configuration.
    await runInDurableObject(stub, (_t: PollTally, state) => {
      const raw = state.storage.sql
        .exec<{ value: string }>("SELECT value FROM meta WHERE key = 'config'")
        .one();
      const { poll: _card, ...legacy } = JSON.parse(raw.value) as Record<string, unknown>;
      state.storage.sql.exec("UPDATE meta SET value = ? WHERE key = 'config'", JSON.stringify(legacy));
    });
    // A new instance loads its state from storage again (as after eviction).
    await runInDurableObject(stub, (t: PollTally) => {
      (t as unknown as { live: unknown }).live = undefined;
    });
    const [first, second] = await Promise.all([
      vote(a?.token ?? "", poll.id, [poll.options[0]?.id ?? ""]),
      vote(b?.token ?? "", poll.id, [poll.options[0]?.id ?? ""]),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toMatchObject({ title: "Lampu jalan", turnout: { ballots: 2 } });
    const stored = await runInDurableObject(stub, (_t: PollTally, state) =>
      state.storage.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'config'").one(),
    );
    expect(JSON.parse(stored.value).poll).toMatchObject({
      id: poll.id,
      title: "Lampu jalan",
      voterScope: "warga",
    });
  });

  it("copies a lone vote at once and a burst at most once per interval", async () => {
    const tenant = await createTenant();
    const [a, b, c] = await tenant.members("warga", 3);
    const { poll } = await openPoll(tenant);
    const stub = stubOf(tenant, poll.id);
    const alarmAt = () => runInDurableObject(stub, (_t: PollTally, state) => state.storage.getAlarm());
    const option = [poll.options[0]?.id ?? ""];

    // The clock stands still a minute ahead (the object runs in this isolate), so the interval is exact
    // and the runtime's own alarm stays a minute away.
    const frozen = Date.now() + 60_000;
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(frozen);
      // A lone vote is copied at once ("now").
      expect((await vote(a?.token ?? "", poll.id, option)).status).toBe(200);
      expect(await alarmAt()).toBe(frozen);
      await deliverMirror(tenant, poll.id);
      expect(await alarmAt()).toBe(new Date(poll.endsAt).getTime());
      // Right after a copy, the next vote's copy waits for the interval instead of running at once.
      expect((await vote(b?.token ?? "", poll.id, option)).status).toBe(200);
      expect(await alarmAt()).toBe(frozen + 500);
      // A further vote does not move the pending copy.
      expect((await vote(c?.token ?? "", poll.id, option)).status).toBe(200);
      expect(await alarmAt()).toBe(frozen + 500);
      await deliverMirror(tenant, poll.id);
    } finally {
      vi.useRealTimers();
    }
    expect(await mirroredRow(tenant, poll.id)).toMatchObject({ ballots: 3, seq: 3 });
    expect(await alarmAt()).toBe(new Date(poll.endsAt).getTime());
  });

  it("asks the household polls for the member's unit, and refuses a member without one after the state checks", async () => {
    const tenant = await createTenant();
    const [member] = await tenant.members("warga", 1, { unitId: "unit-b-1" });
    const [homeless] = await tenant.members("warga", 1);
    const { poll, sekretaris } = await openPoll(tenant, { voterScope: "kk" });
    const option = [poll.options[0]?.id ?? ""];
    expect((await vote(member?.token ?? "", poll.id, option)).status).toBe(200);
    expect(await stubOf(tenant, poll.id).hasVoted("unit:unit-b-1")).toBe(true);
    expectProblem(await vote(homeless?.token ?? "", poll.id, option), 409, "profile_incomplete");
    await callJson(`/api/musyawarah/${poll.id}`, {
      method: "PUT",
      token: sekretaris.token,
      body: { status: "ditutup" },
    });
    expectProblem(await vote(homeless?.token ?? "", poll.id, option), 409, "poll_closed");
  });
});
