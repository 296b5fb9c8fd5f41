import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { systemTenantCtx } from "../../../src/core/tenancy/system";
import { mirrorTally } from "../../../src/modules/musyawarah/service";
import { tenantD1 } from "../../helpers/d1";
import { bindings, callJson, createTenant, operatorToken, type TestTenant } from "../../helpers/harness";
import { openPoll, vote } from "./helpers";

async function mirrored(tenant: TestTenant, pollId: string) {
  const db = tenantD1(tenant);
  const row = await db
    .prepare("SELECT status, results, ballots, results_seq AS seq FROM polls WHERE id = ?")
    .bind(pollId)
    .first<{ status: string; results: string; ballots: number; seq: number }>();
  const voters = await db
    .prepare("SELECT COUNT(*) AS n FROM poll_voters WHERE poll_id = ?")
    .bind(pollId)
    .first<{ n: number }>();
  return { ...row, voters: voters?.n };
}

describe("mirrorTally", () => {
  it("takes absolute counts only from a newer tally, and each voter once, across statement chunks", async () => {
    const tenant = await createTenant();
    const { poll } = await openPoll(tenant);
    const [a, b] = poll.options.map((o) => o.id) as [string, string];
    const ctx = await systemTenantCtx(bindings, tenant.slug, "test");
    const voters = Array.from({ length: 60 }, (_, i) => ({
      voterKey: `user:v${i}`,
      userId: `v${i}`,
      votedAt: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
    }));
    const input = {
      pollId: poll.id,
      counts: { [a]: 40, [b]: 20 },
      ballots: 60,
      seq: 60,
      status: "aktif" as const,
    };

    await mirrorTally({ ctx, input: { ...input, voters } });
    await mirrorTally({ ctx, input: { ...input, voters } });
    expect(await mirrored(tenant, poll.id)).toEqual({
      status: "aktif",
      results: JSON.stringify({ [a]: 40, [b]: 20 }),
      ballots: 60,
      seq: 60,
      voters: 60,
    });

    // A mirror that arrives late (an older sequence) changes nothing.
    await mirrorTally({
      ctx,
      input: { ...input, counts: { [a]: 1, [b]: 0 }, ballots: 1, seq: 1, status: "ditutup", voters: [] },
    });
    expect(await mirrored(tenant, poll.id)).toMatchObject({ status: "aktif", ballots: 60, seq: 60 });
  });

  it("lands ballots of a poll whose tenant was suspended and its musyawarah switched off meanwhile", async () => {
    const tenant = await createTenant();
    const [resident] = await tenant.members("warga", 1);
    const { poll } = await openPoll(tenant);
    expect((await vote(resident?.token ?? "", poll.id, [poll.options[0]?.id ?? ""])).status).toBe(200);
    const patched = await callJson(`/api/platform/tenants/${tenant.id}`, {
      method: "PATCH",
      token: await operatorToken(),
      body: { status: "suspended", flags: { musyawarah: false } },
    });
    expect(patched.status).toBe(200);

    const stub = env.POLL_TALLY.get(env.POLL_TALLY.idFromName(`${tenant.slug}:${poll.id}`));
    await stub.close();
    expect(await mirrored(tenant, poll.id)).toMatchObject({ status: "ditutup", ballots: 1, voters: 1 });
  });
});
