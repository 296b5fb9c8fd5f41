import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { updateComplaint } from "../../../src/modules/aspirasi/complaints";
import { decideProposal } from "../../../src/modules/aspirasi/proposals";
import { markSuggestionRead } from "../../../src/modules/aspirasi/suggestions";
import { auditTrail, losingRace, memberCtx } from "../../helpers/contexts";
import {
  callJson,
  createTenant,
  expectProblem,
  expectRefusedMove,
  type Member,
  type TestTenant,
} from "../../helpers/harness";
import { queuedMessages } from "../../helpers/notify";

interface ComplaintBody {
  id: string;
  status: string;
  thread?: { byStaff: boolean; status: string | null; body: string | null }[];
}
interface ProposalBody {
  id: string;
  status: string;
  endorsements: number;
  endorsedByMe: boolean;
  note: string | null;
}

async function community(): Promise<{ tenant: TestTenant; sek: Member; a: Member; b: Member }> {
  const tenant = await createTenant();
  return {
    tenant,
    sek: await tenant.member("sekretaris"),
    a: await tenant.member("warga"),
    b: await tenant.member("warga"),
  };
}

const complain = (token: string, extra: Record<string, unknown> = {}) =>
  callJson<ComplaintBody>("/api/pengaduan", {
    token,
    body: {
      title: "Lampu jalan mati",
      description: "Lampu di depan blok C mati sejak Senin",
      category: "infrastruktur",
      ...extra,
    },
  });
const move = (token: string, id: string, body: Record<string, unknown>) =>
  callJson<ComplaintBody>(`/api/pengaduan/${id}`, { method: "PUT", token, body });

describe("complaints (pengaduan)", () => {
  it("go baru → diproses → selesai with a thread the resident sees, and the resident is told each time", async () => {
    const { tenant, sek, a } = await community();
    const created = await complain(a.token, {
      location: "Depan blok C",
    });
    expect(created.status).toBe(201);
    expect(created.body.status).toBe("baru");
    expect(
      (await move(sek.token, created.body.id, { status: "diproses", response: "Sudah dilaporkan ke PLN" }))
        .status,
    ).toBe(200);
    expectProblem(await move(sek.token, created.body.id, { status: "diproses" }), 400, "response_required");
    await move(sek.token, created.body.id, { status: "selesai", response: "Lampu sudah menyala" });
    const seen = await callJson<ComplaintBody>(`/api/pengaduan/${created.body.id}`, { token: a.token });
    expect(seen.body.status).toBe("selesai");
    expect(seen.body.thread?.map((m) => [m.byStaff, m.status, m.body])).toEqual([
      [false, "baru", null],
      [true, "diproses", "Sudah dilaporkan ke PLN"],
      [true, "selesai", "Lampu sudah menyala"],
    ]);
    expect(await queuedMessages({ recipient: a.email })).toHaveLength(2);
    const admin = await tenant.member("admin");
    const audited = (await auditTrail(admin.token)).filter((e) => e.targetId === created.body.id);
    expect(audited.map((e) => e.action)).toEqual(["pengaduan.diproses", "pengaduan.selesai"]);
  });

  it("refuses transitions the workflow has not (409) and needs a reason to reject", async () => {
    const { sek, a } = await community();
    const { body } = await complain(a.token);
    expectRefusedMove(await move(sek.token, body.id, { status: "selesai" }), ["diproses", "ditolak"]);
    expectProblem(await move(sek.token, body.id, { status: "ditolak" }), 400, "response_required");
    expect(
      (await move(sek.token, body.id, { status: "ditolak", response: "Bukan wewenang RT" })).body.status,
    ).toBe("ditolak");
    expectRefusedMove(await move(sek.token, body.id, { status: "diproses" }), []);
    const other = await complain(a.token);
    await move(sek.token, other.body.id, { status: "diproses" });
    await move(sek.token, other.body.id, { status: "selesai" });
    expectProblem(
      await move(sek.token, other.body.id, { status: "ditolak", response: "x" }),
      409,
      "invalid_transition",
    );
  });

  it("keeps another resident's and another tenant's complaints out of reach, and counts baru on the dashboard", async () => {
    const { tenant, sek, a, b } = await community();
    const { body } = await complain(a.token);
    await complain(a.token);
    expectProblem(await callJson(`/api/pengaduan/${body.id}`, { token: b.token }), 404, "not_found");
    expect(
      (await callJson<{ items: unknown[] }>("/api/pengaduan/mine", { token: b.token })).body.items,
    ).toEqual([]);
    const elsewhere = await (await createTenant()).member("sekretaris");
    expectProblem(await callJson(`/api/pengaduan/${body.id}`, { token: elsewhere.token }), 404, "not_found");
    expectProblem(await move(elsewhere.token, body.id, { status: "diproses" }), 404, "not_found");
    await move(sek.token, body.id, { status: "diproses" });
    const admin = await tenant.member("admin");
    const stats = await callJson<{ indicators: { key: string; value: number }[] }>(
      "/api/statistik/operasional",
      {
        token: admin.token,
      },
    );
    expect(stats.body.indicators.find((i) => i.key === "newComplaints")?.value).toBe(1);
    const list = await callJson<{ items: ComplaintBody[] }>("/api/pengaduan?status=baru", {
      token: sek.token,
    });
    expect(list.body.items).toHaveLength(1);
  });

  it("accepts a photo only as the community's own upload (complaint-photos.test.ts has the rest)", async () => {
    const { a } = await community();
    expectProblem(await complain(a.token, { photo: "javascript:alert(1)" }), 422, "foreign_image");
  });
});

describe("suggestions (saran)", () => {
  it("stores no link to the sender of an anonymous suggestion; staff read and mark read", async () => {
    const { tenant, sek, a } = await community();
    const anon = await callJson<{ id: string }>("/api/saran", {
      token: a.token,
      body: { body: "Mohon jadwal ronda diumumkan lebih awal", anonymous: true },
    });
    expect(anon.status).toBe(201);
    expect(JSON.stringify(anon.body)).not.toContain(a.id);
    const named = await callJson<{ id: string }>("/api/saran", {
      token: a.token,
      body: { body: "Tambah tempat sampah" },
    });
    const raw = await env[`TENANT_DB_${String(tenant.slot).padStart(2, "0")}` as "TENANT_DB_01"]
      .prepare("SELECT * FROM suggestions WHERE id = ?")
      .bind(anon.body.id)
      .first<Record<string, unknown>>();
    expect(raw?.sender_id).toBeNull();
    expect(JSON.stringify(raw)).not.toContain(a.id);
    const list = await callJson<{
      items: { id: string; senderId: string | null; senderName: string | null }[];
    }>("/api/saran?unread=true", { token: sek.token });
    expect(list.body.items.find((s) => s.id === anon.body.id)).toMatchObject({
      senderId: null,
      senderName: null,
    });
    expect(list.body.items.find((s) => s.id === named.body.id)?.senderId).toBe(a.id);
    const read = await callJson<{ readAt: string | null }>(`/api/saran/${anon.body.id}/read`, {
      method: "PUT",
      token: sek.token,
    });
    expect(read.body.readAt).not.toBeNull();
    const again = await callJson<{ readAt: string | null }>(`/api/saran/${anon.body.id}/read`, {
      method: "PUT",
      token: sek.token,
    });
    expect(again.body.readAt).toBe(read.body.readAt);
    const unread = await callJson<{ items: { id: string }[] }>("/api/saran?unread=true", {
      token: sek.token,
    });
    expect(unread.body.items.map((s) => s.id)).toEqual([named.body.id]);
  });
});

describe("proposals (usulan)", () => {
  it("are endorsed once by each other resident and decided by staff with a note", async () => {
    const { sek, a, b } = await community();
    const created = await callJson<ProposalBody>("/api/usulan", {
      token: a.token,
      body: { title: "Polisi tidur di gang 3", description: "Banyak motor ngebut", estimatedCost: 750_000 },
    });
    expect(created.body).toMatchObject({ status: "diajukan", endorsements: 0 });
    const id = created.body.id;
    expectProblem(
      await callJson(`/api/usulan/${id}/dukung`, { token: a.token, body: {} }),
      409,
      "own_proposal",
    );
    const endorsed = await callJson<ProposalBody>(`/api/usulan/${id}/dukung`, { token: b.token, body: {} });
    expect(endorsed.body).toMatchObject({ endorsements: 1, endorsedByMe: true });
    // The list says which proposals the caller endorsed, each reader their own.
    const other = await callJson<ProposalBody>("/api/usulan", {
      token: a.token,
      body: { title: "Lampu jalan gang 5", description: "Gelap sekali", estimatedCost: 300_000 },
    });
    const listed = async (token: string) =>
      (await callJson<{ items: ProposalBody[] }>("/api/usulan", { token })).body.items.map((p) => [
        p.id,
        p.endorsedByMe,
      ]);
    expect(await listed(b.token)).toEqual([
      [other.body.id, false],
      [id, true],
    ]);
    expect(await listed(a.token)).toEqual([
      [other.body.id, false],
      [id, false],
    ]);
    expectProblem(
      await callJson(`/api/usulan/${id}/dukung`, { token: b.token, body: {} }),
      409,
      "already_endorsed",
    );
    expectProblem(
      await callJson(`/api/usulan/${id}`, { method: "PUT", token: sek.token, body: { status: "diterima" } }),
      400,
      "invalid_input",
    );
    const decided = await callJson<ProposalBody>(`/api/usulan/${id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "diterima", note: "Dianggarkan bulan depan" },
    });
    expect(decided.body).toMatchObject({
      status: "diterima",
      note: "Dianggarkan bulan depan",
      endorsements: 1,
    });
    expectRefusedMove(
      await callJson(`/api/usulan/${id}`, {
        method: "PUT",
        token: sek.token,
        body: { status: "ditolak", note: "x" },
      }),
      [],
    );
    const late = await (await createTenant()).member("warga");
    expectProblem(
      await callJson(`/api/usulan/${id}/dukung`, { token: late.token, body: {} }),
      404,
      "not_found",
    );
    expect(
      (await queuedMessages({ recipient: a.email })).some((m) => (m.subject ?? "").includes("diterima")),
    ).toBe(true);
  });

  it("counts concurrent endorsements exactly", async () => {
    const { tenant, a } = await community();
    const { body } = await callJson<ProposalBody>("/api/usulan", {
      token: a.token,
      body: { title: "Taman bermain", description: "Untuk anak-anak blok D" },
    });
    const residents = await tenant.members("warga", 20);
    const results = await Promise.all(
      [...residents, ...residents.slice(0, 5)].map((r) =>
        callJson(`/api/usulan/${body.id}/dukung`, { token: r.token, body: {} }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(20);
    const final = await callJson<ProposalBody>(`/api/usulan/${body.id}`, { token: a.token });
    expect(final.body.endorsements).toBe(20);
  });
});

describe("audit records ride in the change's batch", () => {
  it("leaves no record, thread line or notice for a lost race; records the winner once", async () => {
    const { tenant, sek, a } = await community();
    const admin = await tenant.member("admin");
    const ctx = await memberCtx(tenant.slug, sek, "sekretaris");
    const trail = async (id: string) =>
      (await auditTrail(admin.token)).filter((e) => e.targetId === id).map((e) => e.action);

    const { body: complaint } = await complain(a.token);
    const rivalComplaint = losingRace(ctx, (db) =>
      db.run(sql`UPDATE complaints SET revision = revision + 1 WHERE id = ${complaint.id}`),
    );
    await expect(
      updateComplaint({
        ctx: rivalComplaint,
        id: complaint.id,
        input: { status: "diproses", response: "x" },
      }),
    ).rejects.toMatchObject({ code: "invalid_transition" });
    expect(await trail(complaint.id)).toEqual([]);
    const seen = await callJson<ComplaintBody>(`/api/pengaduan/${complaint.id}`, { token: a.token });
    expect(seen.body.thread?.map((m) => m.status)).toEqual(["baru"]);
    expect(await queuedMessages({ recipient: a.email })).toEqual([]);
    await updateComplaint({ ctx, id: complaint.id, input: { status: "diproses", response: "Dicek" } });
    expect(await trail(complaint.id)).toEqual(["pengaduan.diproses"]);

    const { body: proposal } = await callJson<ProposalBody>("/api/usulan", {
      token: a.token,
      body: { title: "Lampu taman", description: "Taman gelap di malam hari" },
    });
    const rivalDecision = losingRace(ctx, (db) =>
      db.run(sql`UPDATE proposals SET status = 'ditolak' WHERE id = ${proposal.id}`),
    );
    await expect(
      decideProposal({ ctx: rivalDecision, id: proposal.id, input: { status: "diterima", note: "Ya" } }),
    ).rejects.toMatchObject({ code: "invalid_transition" });
    expect(await trail(proposal.id)).toEqual([]);

    const { body: note } = await callJson<{ id: string }>("/api/saran", {
      token: a.token,
      body: { body: "Jadwal kerja bakti" },
    });
    const rivalReader = losingRace(ctx, (db) =>
      db.run(sql`UPDATE suggestions SET read_at = '2026-01-02T03:04:05.000Z' WHERE id = ${note.id}`),
    );
    const read = await markSuggestionRead({ ctx: rivalReader, id: note.id });
    expect(read.readAt).toBe("2026-01-02T03:04:05.000Z");
    expect(await trail(note.id)).toEqual([]);
  });
});
