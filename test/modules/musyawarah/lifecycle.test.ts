import { describe, expect, it } from "vitest";
import {
  callJson,
  createTenant,
  expectProblem,
  expectRefusedMove,
  operatorToken,
} from "../../helpers/harness";
import { deliverMirror, inMinutes, newPoll, openPoll, type PollBody, vote } from "./helpers";

describe("creating and editing polls", () => {
  it("creates a draft whose options come back with ids and zero results", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const poll = await newPoll(sek.token, { quorum: { kind: "percent", value: 50 } });
    expect(poll.status).toBe("draft");
    expect(poll.options.map((o) => o.label)).toEqual(["Sabtu", "Minggu"]);
    expect(poll.results).toEqual(poll.options.map((o) => ({ optionId: o.id, label: o.label, count: 0 })));
    expect(poll.turnout).toEqual({ ballots: 0, eligibleVoters: null });
  });

  it("rejects bad definitions", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const base = { title: "Rapat", options: ["Ya", "Tidak"], startsAt: inMinutes(1), endsAt: inMinutes(60) };
    const cases: [Record<string, unknown>, string][] = [
      [{ options: ["Ya"] }, "invalid_input"],
      [{ options: ["Ya", "ya"] }, "invalid_input"],
      [{ options: Array.from({ length: 21 }, (_, i) => `Opsi ${i}`) }, "invalid_input"],
      [{ endsAt: inMinutes(0) }, "invalid_schedule"],
      [{ startsAt: "besok" }, "invalid_input"],
      [{ multipleChoice: true, maxChoices: 3 }, "invalid_max_choices"],
      [{ quorum: { kind: "percent", value: 150 } }, "invalid_input"],
    ];
    for (const [patch, code] of cases) {
      const res = await callJson("/api/musyawarah", { token: sek.token, body: { ...base, ...patch } });
      expectProblem(res, 400, code);
    }
  });

  it("lets every staff duty create polls (spec: S), and no resident", async () => {
    const tenant = await createTenant();
    const body = { title: "X poll", options: ["a", "b"], startsAt: inMinutes(1), endsAt: inMinutes(9) };
    const resident = await tenant.member("warga");
    expectProblem(await callJson("/api/musyawarah", { token: resident.token, body }), 403, "forbidden_role");
    for (const role of ["bendahara", "sekretaris", "admin"] as const) {
      const m = await tenant.member(role);
      expect((await callJson("/api/musyawarah", { token: m.token, body })).status).toBe(201);
    }
  });

  it("walks draft → aktif → ditutup and refuses every other change with 409", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    await tenant.members("warga", 3);
    const poll = await newPoll(sek.token);
    const put = (body: Record<string, unknown>) =>
      callJson<PollBody>(`/api/musyawarah/${poll.id}`, { method: "PUT", token: sek.token, body });

    const edited = await put({ options: ["Sabtu pagi", "Minggu pagi", "Minggu sore"] });
    expect(edited.status).toBe(200);
    expect(edited.body.options.map((o) => o.label)).toEqual(["Sabtu pagi", "Minggu pagi", "Minggu sore"]);
    expectRefusedMove(await put({ status: "ditutup" }), ["aktif"]);

    const published = await put({ status: "aktif" });
    expect(published.body.status).toBe("aktif");
    expect(published.body.turnout.eligibleVoters).toBe(3);
    expectRefusedMove(await put({ options: ["A", "B"] }), ["ditutup"]);
    expectProblem(await put({ title: "Judul baru" }), 409, "invalid_transition");
    expectProblem(await put({ status: "draft" }), 409, "invalid_transition");

    const closed = await put({ status: "ditutup" });
    expect(closed.body.status).toBe("ditutup");
    expectRefusedMove(await put({ status: "aktif" }), []);
    expectProblem(await put({ status: "draft" }), 409, "invalid_transition");
    expectProblem(await put({ status: "ditutup", title: "lagi" }), 409, "invalid_transition");
  });

  it("closes with If-Match of the version the officer read, and a stale tag closes nothing", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const [voter] = await tenant.members("warga", 2);
    const poll = await newPoll(sek.token);
    const url = `/api/musyawarah/${poll.id}`;
    const read = async () => callJson<PollBody>(url, { token: sek.token });
    const close = (tag: string | null) =>
      callJson<PollBody>(url, {
        method: "PUT",
        token: sek.token,
        body: { status: "ditutup" },
        headers: { "If-Match": tag ?? "" },
      });
    const draftTag = (await read()).headers.get("ETag");
    expect((await callJson(url, { method: "PUT", token: sek.token, body: { status: "aktif" } })).status).toBe(
      200,
    );

    // The draft's tag is stale: 412, and the poll stays open (a ballot still counts).
    expectProblem(await close(draftTag), 412, "precondition_failed");
    const open = await read();
    expect(open.body.status).toBe("aktif");
    expect((await vote(voter?.token ?? "", poll.id, [poll.options[0]?.id ?? ""])).status).toBe(200);
    await deliverMirror(tenant, poll.id);

    // The tag read now is current, though the tally's mirror moves the row while it closes (it answered
    // 412 before the row was checked ahead of the tally).
    const current = await read();
    const closed = await close(current.headers.get("ETag"));
    expect(closed.status).toBe(200);
    expect(closed.body.status).toBe("ditutup");
    expect(closed.headers.get("ETag")).not.toBe(current.headers.get("ETag"));
  });

  it("refuses to publish a poll whose end is past", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const poll = await newPoll(sek.token, { startsAt: inMinutes(-120), endsAt: inMinutes(-60) });
    const res = await callJson(`/api/musyawarah/${poll.id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "aktif" },
    });
    expectProblem(res, 400, "invalid_schedule");

    // Created as aktif with a past end: refused before anything is stored, not left behind as a draft.
    const direct = await callJson("/api/musyawarah", {
      token: sek.token,
      body: {
        title: "Rapat lalu",
        options: ["Ya", "Tidak"],
        startsAt: inMinutes(-120),
        endsAt: inMinutes(-60),
        status: "aktif",
      },
    });
    expectProblem(direct, 400, "invalid_schedule");
    const list = await callJson<{ items: PollBody[] }>("/api/musyawarah", { token: sek.token });
    expect(list.body.items.map((p) => p.id)).toEqual([poll.id]);
  });

  it("deletes a draft or a poll with no ballots, and refuses once someone voted", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const [resident] = await tenant.members("warga", 1);
    const draft = await newPoll(sek.token);
    expect(
      (await callJson(`/api/musyawarah/${draft.id}`, { method: "DELETE", token: sek.token })).status,
    ).toBe(204);
    expectProblem(await callJson(`/api/musyawarah/${draft.id}`, { token: sek.token }), 404, "not_found");

    const empty = await newPoll(sek.token, { status: "aktif" });
    expect(
      (await callJson(`/api/musyawarah/${empty.id}`, { method: "DELETE", token: sek.token })).status,
    ).toBe(204);

    const voted = await newPoll(sek.token, { status: "aktif" });
    await vote(resident?.token ?? "", voted.id, [voted.options[0]?.id ?? ""]);
    expectProblem(
      await callJson(`/api/musyawarah/${voted.id}`, { method: "DELETE", token: sek.token }),
      409,
      "poll_has_ballots",
    );
  });
});

describe("what residents see", () => {
  it("hides drafts and shows open polls with hasVoted", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const [resident] = await tenant.members("warga", 1);
    const token = resident?.token ?? "";
    const draft = await newPoll(sek.token, { title: "Masih draf" });
    const open = await newPoll(sek.token, { title: "Sedang dibuka", status: "aktif" });

    expectProblem(await callJson(`/api/musyawarah/${draft.id}`, { token }), 404, "not_found");
    const before = await callJson<{ items: PollBody[] }>("/api/musyawarah", { token });
    expect(before.body.items.map((p) => p.id)).toEqual([open.id]);
    expect(before.body.items[0]?.hasVoted).toBe(false);

    const voted = await vote(token, open.id, [open.options[1]?.id ?? ""]);
    expect(voted.status).toBe(200);
    expect(voted.body.results?.find((r) => r.optionId === open.options[1]?.id)?.count).toBe(1);
    await deliverMirror(tenant, open.id);
    const after = await callJson<{ items: PollBody[] }>("/api/musyawarah", { token });
    expect(after.body.items[0]?.hasVoted).toBe(true);
    expect((await callJson<PollBody>(`/api/musyawarah/${open.id}`, { token })).body.hasVoted).toBe(true);

    const staffList = await callJson<{ items: PollBody[] }>("/api/musyawarah", { token: sek.token });
    expect(staffList.body.items.map((p) => p.id).sort()).toEqual([draft.id, open.id].sort());
  });

  it("lists only active polls to a resident; a closed one stays readable by its id, with its results", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const [resident] = await tenant.members("warga", 1);
    const token = resident?.token ?? "";
    const draft = await newPoll(sek.token, { title: "Masih draf" });
    const open = await newPoll(sek.token, { title: "Sedang dibuka", status: "aktif" });
    const closed = await newPoll(sek.token, {
      title: "Sudah ditutup",
      status: "aktif",
      resultsVisibility: "after_close",
    });
    expect((await vote(token, closed.id, [closed.options[0]?.id ?? ""])).status).toBe(200);
    const close = await callJson(`/api/musyawarah/${closed.id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "ditutup" },
    });
    expect(close.status).toBe(200);

    const list = await callJson<{ items: PollBody[] }>("/api/musyawarah", { token });
    expect(list.body.items.map((p) => p.id)).toEqual([open.id]);
    for (const status of ["ditutup", "draft"]) {
      const filtered = await callJson<{ items: PollBody[] }>(`/api/musyawarah?status=${status}`, { token });
      expect(filtered.status).toBe(200);
      expect(filtered.body.items).toEqual([]);
    }
    const result = await callJson<PollBody>(`/api/musyawarah/${closed.id}`, { token });
    expect(result.status).toBe(200);
    expect(result.body.status).toBe("ditutup");
    expect(result.body.results?.find((r) => r.optionId === closed.options[0]?.id)?.count).toBe(1);
    expect(result.body.hasVoted).toBe(true);

    // Staff see every poll, whether or not they live here; a staff member who does also holds a ballot.
    const sekWithHouse = await tenant.member("sekretaris", { unitId: "unit-staff-1" });
    for (const staff of [sek, await tenant.member("bendahara"), sekWithHouse]) {
      const all = await callJson<{ items: PollBody[] }>("/api/musyawarah", { token: staff.token });
      expect(all.body.items.map((p) => p.id).sort()).toEqual([draft.id, open.id, closed.id].sort());
      const onlyClosed = await callJson<{ items: PollBody[] }>("/api/musyawarah?status=ditutup", {
        token: staff.token,
      });
      expect(onlyClosed.body.items.map((p) => p.id)).toEqual([closed.id]);
    }
    const withBallot = await callJson<{ items: PollBody[] }>("/api/musyawarah", {
      token: sekWithHouse.token,
    });
    expect(withBallot.body.items.find((p) => p.id === open.id)?.hasVoted).toBe(false);
  });

  it("shows hasVoted in the list for personal and household polls alike", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const [first, second] = await tenant.members("warga", 2, { unitId: "unit-list-1" });
    const personal = await newPoll(sek.token, { title: "Pribadi", status: "aktif" });
    const household = await newPoll(sek.token, { title: "Per KK", status: "aktif", voterScope: "kk" });
    expect((await vote(first?.token ?? "", household.id, [household.options[0]?.id ?? ""])).status).toBe(200);
    expect((await vote(second?.token ?? "", personal.id, [personal.options[0]?.id ?? ""])).status).toBe(200);
    await deliverMirror(tenant, household.id);
    await deliverMirror(tenant, personal.id);
    const seen = async (token: string) =>
      Object.fromEntries(
        (await callJson<{ items: PollBody[] }>("/api/musyawarah", { token })).body.items.map((p) => [
          p.id,
          p.hasVoted,
        ]),
      );
    // The household's ballot is used for both members; the personal ballot only for the one who cast it.
    expect(await seen(first?.token ?? "")).toEqual({ [household.id]: true, [personal.id]: false });
    expect(await seen(second?.token ?? "")).toEqual({ [household.id]: true, [personal.id]: true });
  });

  it("keeps results from residents until close when resultsVisibility is after_close", async () => {
    const tenant = await createTenant();
    const [resident] = await tenant.members("warga", 1);
    const { poll, sekretaris } = await openPoll(tenant, { resultsVisibility: "after_close" });
    const token = resident?.token ?? "";
    const voted = await vote(token, poll.id, [poll.options[0]?.id ?? ""]);
    expect(voted.body.results).toBeNull();
    expect(voted.body.turnout.ballots).toBe(1);
    expect((await callJson<PollBody>(`/api/musyawarah/${poll.id}`, { token })).body.results).toBeNull();
    expect(
      (await callJson<PollBody>(`/api/musyawarah/${poll.id}`, { token: sekretaris.token })).body.results?.[0]
        ?.count,
    ).toBe(1);
    await callJson(`/api/musyawarah/${poll.id}`, {
      method: "PUT",
      token: sekretaris.token,
      body: { status: "ditutup" },
    });
    expect((await callJson<PollBody>(`/api/musyawarah/${poll.id}`, { token })).body.results?.[0]?.count).toBe(
      1,
    );
  });

  it("gives the bendahara the organisers' view (spec: S), but no ballot without a house", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const bendahara = await tenant.member("bendahara");
    const draft = await newPoll(sek.token);
    const open = await newPoll(sek.token, { status: "aktif", resultsVisibility: "after_close" });
    const token = bendahara.token;

    const list = await callJson<{ items: PollBody[] }>("/api/musyawarah", { token });
    expect(list.body.items.map((p) => p.id).sort()).toEqual([draft.id, open.id].sort());
    expect(list.body.items.every((p) => !("hasVoted" in p))).toBe(true);
    expect((await callJson(`/api/musyawarah/${draft.id}`, { token })).status).toBe(200);
    const one = await callJson<PollBody>(`/api/musyawarah/${open.id}`, { token });
    expect(one.body.results).not.toBeNull();
    expect(one.body).not.toHaveProperty("hasVoted");
    expect((await callJson(`/api/musyawarah/${open.id}/votes`, { token })).status).toBe(200);
    const edited = await callJson<PollBody>(`/api/musyawarah/${draft.id}`, {
      method: "PUT",
      token,
      body: { title: "Judul dari bendahara" },
    });
    expect(edited.status).toBe(200);
    expectProblem(await vote(token, open.id, [open.options[0]?.id ?? ""]), 403, "forbidden_role");
  });

  it("answers 404 for another tenant's poll, even to its residents' tokens", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const { poll } = await openPoll(a);
    const [outsider] = await b.members("warga", 1);
    expectProblem(await callJson(`/api/musyawarah/${poll.id}`, { token: outsider?.token }), 404, "not_found");
    expectProblem(await vote(outsider?.token ?? "", poll.id, [poll.options[0]?.id ?? ""]), 404, "not_found");
  });

  it("answers 403 feature_disabled when musyawarah is off", async () => {
    const tenant = await createTenant();
    const [resident] = await tenant.members("warga", 1);
    await callJson(`/api/platform/tenants/${tenant.id}`, {
      method: "PATCH",
      token: await operatorToken(),
      body: { flags: { musyawarah: false } },
    });
    expectProblem(await callJson("/api/musyawarah", { token: resident?.token }), 403, "feature_disabled");
  });

  it("counts active polls on the staff dashboard", async () => {
    const tenant = await createTenant();
    const { sekretaris } = await openPoll(tenant);
    await newPoll(sekretaris.token);
    const res = await callJson<{ indicators: { key: string; value: number }[] }>(
      "/api/statistik/operasional",
      {
        token: sekretaris.token,
      },
    );
    expect(res.body.indicators.find((i) => i.key === "activePolls")?.value).toBe(1);
  });
});
