import { describe, expect, it } from "vitest";
import { tenantD1, withTrigger } from "../../helpers/d1";
import { call, callJson, createTenant, expectProblem, type TestTenant } from "../../helpers/harness";
import { newPoll, type PollBody } from "./helpers";

interface Entry {
  action: string;
  actorId: string | null;
  targetType: string;
  targetId: string | null;
  detail: Record<string, unknown> | null;
}

async function pollRecords(tenant: TestTenant) {
  const admin = await tenant.member("admin");
  const res = await callJson<{ items: Entry[] }>("/api/audit?limit=100", { token: admin.token });
  expect(res.status).toBe(200);
  return res.body.items.filter((e) => e.targetType === "poll");
}

const put = (token: string, id: string, body: Record<string, unknown>) =>
  callJson<PollBody>(`/api/musyawarah/${id}`, { method: "PUT", token, body });

describe("the audit record of polls", () => {
  it("records every change, by whom, newest first", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const poll = await newPoll(sek.token);
    expect((await put(sek.token, poll.id, { title: "Jadwal ronda" })).status).toBe(200);
    expect((await put(sek.token, poll.id, { status: "aktif" })).status).toBe(200);
    expect((await put(sek.token, poll.id, { status: "ditutup" })).status).toBe(200);
    const draft = await newPoll(sek.token);
    expect((await call(`/api/musyawarah/${draft.id}`, { method: "DELETE", token: sek.token })).status).toBe(
      204,
    );

    const records = await pollRecords(tenant);
    expect(records.filter((e) => e.targetId === poll.id).map((e) => e.action)).toEqual([
      "poll.close",
      "poll.publish",
      "poll.update",
      "poll.create",
    ]);
    expect(records.filter((e) => e.targetId === draft.id).map((e) => e.action)).toEqual([
      "poll.delete",
      "poll.create",
    ]);
    expect(records.every((e) => e.actorId === sek.id)).toBe(true);
  });

  it("writes no record of a change that failed, and no change whose record failed", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const db = tenantD1(tenant);
    const title = `Rapat gagal ${tenant.slug}`;
    const failed = await withTrigger(
      db,
      `fail_poll_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON polls WHEN NEW.title = '${title}' BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () =>
        callJson("/api/musyawarah", {
          token: sek.token,
          body: {
            title,
            options: ["Ya", "Tidak"],
            startsAt: new Date().toISOString(),
            endsAt: "2099-01-01T00:00:00Z",
          },
        }),
    );
    expect(failed.status).toBe(500);
    expect(await pollRecords(tenant)).toEqual([]);

    const poll = await newPoll(sek.token);
    const refused = await withTrigger(
      db,
      `fail_audit_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE INSERT ON audit_log WHEN NEW.action = 'poll.delete' AND NEW.target_id = '${poll.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () => call(`/api/musyawarah/${poll.id}`, { method: "DELETE", token: sek.token }),
    );
    expect(refused.status).toBe(500);
    expect((await callJson(`/api/musyawarah/${poll.id}`, { token: sek.token })).status).toBe(200);
  });

  it("writes no record when another request changed the draft first", async () => {
    const tenant = await createTenant();
    const sek = await tenant.member("sekretaris");
    const poll = await newPoll(sek.token);
    // The UPDATE finds no draft, as if a concurrent publish or delete had won.
    const lost = await withTrigger(
      tenantD1(tenant),
      `skip_poll_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE UPDATE ON polls WHEN OLD.id = '${poll.id}' BEGIN SELECT RAISE(IGNORE); END`,
      () => put(sek.token, poll.id, { status: "aktif" }),
    );
    expectProblem(lost, 409, "invalid_transition");
    expect((await pollRecords(tenant)).map((e) => e.action)).toEqual(["poll.create"]);
  });
});
