import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../../../src/app";
import { openCursor } from "../../../src/core/http/cursor";
import { CRON, runScheduled } from "../../../src/core/jobs";
import { systemPlatformCtx } from "../../../src/core/tenancy/system";
import { tenantD1 } from "../../helpers/d1";
import {
  bindings,
  call,
  callJson,
  createTenant,
  expectProblem,
  type Member,
  type TestTenant,
  unique,
} from "../../helpers/harness";
import { CLEAN_PNG } from "../galeri-pasar/images";

interface Row {
  id: string;
  channel: string;
  status: string;
  recipient: string;
  user_id: string | null;
  last_error: string | null;
  not_before: string | null;
  payload: string;
}

/** What the API asked the notification service to send under a reference, from its delivery log. */
async function logOf(reference: string): Promise<Row[]> {
  const rows = await env.NOTIFY_DB_TEST.prepare("SELECT * FROM messages WHERE reference = ? ORDER BY id")
    .bind(reference)
    .all<Row>();
  return rows.results;
}

/** Registers devices straight in the notification service's table: 200 of them in one statement. */
async function devicesFor(tenant: TestTenant, members: readonly { id: string }[]) {
  const now = new Date().toISOString();
  const values = members.map((m) => ({ token: `fcm-${m.id}`, userId: m.id }));
  await env.NOTIFY_DB_TEST.prepare(
    `INSERT INTO devices (token, user_id, tenant, platform, active, created_at, updated_at)
     SELECT json_extract(value, '$.token'), json_extract(value, '$.userId'), ?2, 'android', 1, ?3, ?3 FROM json_each(?1)`,
  )
    .bind(JSON.stringify(values), tenant.slug, now)
    .run();
}

/** Quiet hours around the current Jakarta time, so a message sent now is held (the service's own clock). */
function quietAroundNow() {
  const minutes = Math.floor((Date.now() / 60_000 + 7 * 60) % (24 * 60));
  const hhmm = (m: number) => {
    const v = (m + 24 * 60) % (24 * 60);
    return `${String(Math.floor(v / 60)).padStart(2, "0")}:${String(v % 60).padStart(2, "0")}`;
  };
  return { start: hhmm(minutes - 60), end: hhmm(minutes + 60) };
}

const noQuiet = { start: "00:00", end: "00:00" };

let tenant: TestTenant;
let sek: Member;
let warga: Member;
let bendahara: Member;

beforeAll(async () => {
  tenant = await createTenant();
  [sek, warga, bendahara] = await Promise.all([
    tenant.member("sekretaris"),
    tenant.member("warga", { whatsapp: "6281299990001" }),
    tenant.member("bendahara"),
  ]);
});

describe("berita", () => {
  it("renders Markdown to sanitised HTML: no script, no event handlers, no javascript: links", async () => {
    const res = await callJson<{ bodyHtml: string; status: string }>("/api/berita", {
      token: sek.token,
      body: {
        title: "Uji keamanan",
        body: [
          "# Judul",
          "<script>alert('x')</script>",
          '<img src="x" onerror="alert(1)">',
          "[klik](javascript:alert(1)) dan [aman](https://warga.id)",
          "[tersamar](JaVaScRiPt:alert(1)) [data](data:text/html;base64,PHNjcmlwdD4=)",
          "![foto](javascript:alert(1))",
        ].join("\n\n"),
      },
    });
    expect(res.status).toBe(201);
    const html = res.body.bodyHtml;
    expect(res.body.status).toBe("draft");
    expect(html).toContain("<h1>Judul</h1>");
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toMatch(/href="(javascript|data):/i);
    expect(html).not.toMatch(/src="javascript:/i);
    expect(html).toContain('<a href="https://warga.id" rel="noopener noreferrer nofollow ugc">aman</a>');
  });

  it("keeps drafts from residents and pushes once published, once per version", async () => {
    await devicesFor(tenant, [warga]);
    const draft = await callJson<{ id: string }>("/api/berita", {
      token: sek.token,
      body: { title: "Posyandu balita", body: "Sabtu pukul **08.00** di pos RW." },
    });
    const id = draft.body.id;
    expectProblem(await callJson(`/api/berita/${id}`, { token: warga.token }), 404, "not_found");
    const reference = (v: number) => `${tenant.id}:berita:${id}:v${v}`;
    expect(await logOf(reference(1))).toEqual([]);

    const published = await callJson<{ status: string; publishedAt: string }>(`/api/berita/${id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "terbit" },
    });
    expect(published.body.status).toBe("terbit");
    const pushes = await logOf(reference(1));
    const mine = pushes.filter((r) => r.user_id === warga.id);
    expect(mine.map((r) => [r.channel, r.status, r.recipient])).toEqual([
      ["push", "queued", `fcm-${warga.id}`],
    ]);
    expect(JSON.parse(mine[0]?.payload ?? "{}")).toMatchObject({
      title: "Posyandu balita",
      body: "Sabtu pukul 08.00 di pos RW.",
      data: { screen: "berita", id },
    });

    // Publishing again (a double click) sends nothing; an edit is a new version and is pushed again.
    await callJson(`/api/berita/${id}`, { method: "PUT", token: sek.token, body: { status: "terbit" } });
    expect(await logOf(reference(1))).toHaveLength(pushes.length);
    expect(await logOf(reference(2))).toEqual([]);
    const edited = await callJson<{ version: number }>(`/api/berita/${id}`, {
      method: "PUT",
      token: sek.token,
      body: { body: "Sabtu pukul 09.00 di pos RW." },
    });
    expect(edited.body.version).toBe(2);
    expect((await logOf(reference(2))).filter((r) => r.user_id === warga.id)).toHaveLength(1);

    const list = await callJson<{ items: { id: string; status: string }[] }>("/api/berita", {
      token: warga.token,
    });
    expect(list.body.items.every((b) => b.status === "terbit")).toBe(true);
    expect(list.body.items.map((b) => b.id)).toContain(id);
  });

  it("takes a cover uploaded to the file store as sampul, and refuses other files", async () => {
    const upload = async (token: string, purpose: string) => {
      const form = new FormData();
      form.set("file", new File([CLEAN_PNG], "sampul.png", { type: "image/png" }));
      form.set("purpose", purpose);
      return (await callJson<{ id: string }>("/api/files", { token, body: form })).body.id;
    };
    const cover = await upload(sek.token, "sampul");
    const res = await callJson<{ id: string; cover: { id: string; url: string } | null }>("/api/berita", {
      token: sek.token,
      body: { title: "Lomba kebersihan", body: "Pemenang diumumkan", coverFileId: cover },
    });
    expect(res.status).toBe(201);
    expect(res.body.cover).toEqual({
      id: cover,
      url: expect.stringMatching(new RegExp(`/api/files/${cover}$`)),
    });
    const evidence = await upload(warga.token, "pengaduan");
    expectProblem(
      await callJson(`/api/berita/${res.body.id}`, {
        method: "PUT",
        token: sek.token,
        body: { coverFileId: evidence },
      }),
      400,
      "invalid_file_purpose",
    );
    expectProblem(
      await callJson("/api/berita", {
        token: sek.token,
        body: { title: "Lain", body: "x", coverFileId: "01JD0000000000000000000000" },
      }),
      404,
      "file_not_found",
    );
    const removed = await callJson<{ cover: unknown }>(`/api/berita/${res.body.id}`, {
      method: "PUT",
      token: sek.token,
      body: { coverFileId: null },
    });
    expect(removed.body.cover).toBeNull();
  });

  it("refuses residents' writes, empty titles, and answers 404 for unknown ids", async () => {
    expectProblem(
      await callJson("/api/berita", { token: warga.token, body: { title: "Berita", body: "Isi" } }),
      403,
      "forbidden_role",
    );
    expectProblem(
      await callJson("/api/berita", { token: sek.token, body: { title: "", body: "Isi" } }),
      400,
      "invalid_input",
    );
    expectProblem(
      await callJson("/api/berita/01JD0000000000000000000000", { token: sek.token }),
      404,
      "not_found",
    );
    const del = await callJson<{ id: string }>("/api/berita", {
      token: sek.token,
      body: { title: "Hapus", body: "x" },
    });
    expect((await call(`/api/berita/${del.body.id}`, { method: "DELETE", token: sek.token })).status).toBe(
      204,
    );
    expect((await callJson(`/api/berita/${del.body.id}`, { token: sek.token })).status).toBe(404);
  });
});

describe("pengumuman fan-out", () => {
  it("reaches a 200-resident audience on push, WhatsApp and email, with a delivery summary and no double send", async () => {
    const rt = await createTenant();
    const admin = await rt.member("admin");
    const residents = await rt.members("warga", 200);
    await devicesFor(rt, residents.slice(0, 150));
    const res = await callJson<{ id: string; version: number; deliveryPending: boolean }>("/api/pengumuman", {
      token: admin.token,
      body: {
        title: "Kerja bakti akbar",
        body: "Minggu 07.00, bawa *cangkul*.",
        channels: { push: true, whatsapp: true, email: true },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.deliveryPending).toBe(false);
    const reference = `${rt.id}:pengumuman:${res.body.id}:v1`;
    const log = await logOf(reference);
    const pushQueued = log.filter((r) => r.channel === "push" && r.status === "queued");
    expect(pushQueued).toHaveLength(150);
    expect(JSON.parse(pushQueued[0]?.payload ?? "{}").data).toEqual({
      screen: "pengumuman",
      id: res.body.id,
    });

    const summary = await callJson<{
      version: number;
      channels: Record<
        string,
        { total: number; queued: number; skipped: number; skippedReasons: Record<string, number> }
      >;
    }>(`/api/pengumuman/${res.body.id}/pengiriman`, { token: admin.token });
    expect(summary.status).toBe(200);
    expect(summary.body.version).toBe(1);
    // 202 members: 150 residents with a device, 50 without, and two admins without one (the member
    // signed in here and the admin the operator invited when the tenant was created).
    expect(summary.body.channels.push).toMatchObject({ total: 202, queued: 150, skipped: 52 });
    expect(summary.body.channels.push?.skippedReasons).toEqual({ no_device: 52 });
    expect(summary.body.channels.email).toMatchObject({ total: 202, queued: 202, skipped: 0 });
    // The bulk residents and both admins have no WhatsApp number on their accounts.
    expect(summary.body.channels.whatsapp?.skippedReasons).toEqual({ no_address: 202 });

    // A retried publish and a save without a change send nothing again.
    await callJson(`/api/pengumuman/${res.body.id}`, {
      method: "PUT",
      token: admin.token,
      body: { status: "terbit" },
    });
    await callJson(`/api/pengumuman/${res.body.id}`, {
      method: "PUT",
      token: admin.token,
      body: { title: "Kerja bakti akbar" },
    });
    expect(await logOf(reference)).toHaveLength(log.length);
    const email = log.find((r) => r.channel === "email");
    expect(JSON.parse(email?.payload ?? "{}")).toMatchObject({
      subject: "[RT Uji] Kerja bakti akbar",
      html: expect.stringContaining("<em>cangkul</em>"),
    });
  });

  it("honours preferences and quiet hours; urgent announcements ignore quiet hours", async () => {
    const rt = await createTenant();
    const staff = await rt.member("sekretaris");
    const [sleepy, optedOut] = await Promise.all([rt.member("warga"), rt.member("warga")]);
    await devicesFor(rt, [sleepy, optedOut]);
    const put = await callJson("/api/user/notification-preferences", {
      method: "PUT",
      token: sleepy.token,
      body: { push: true, whatsapp: true, email: true, quietHours: quietAroundNow() },
    });
    expect(put.status).toBe(200);
    await callJson("/api/user/notification-preferences", {
      method: "PUT",
      token: optedOut.token,
      body: { push: false, whatsapp: true, email: true, quietHours: noQuiet },
    });

    const normal = await callJson<{ id: string }>("/api/pengumuman", {
      token: staff.token,
      body: { title: "Arisan RT", body: "Malam ini di rumah Bu RT." },
    });
    const normalLog = await logOf(`${rt.id}:pengumuman:${normal.body.id}:v1`);
    const held = normalLog.find((r) => r.user_id === sleepy.id);
    expect(held?.status).toBe("queued");
    expect(Date.parse(held?.not_before ?? "")).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect(normalLog.find((r) => r.user_id === optedOut.id)).toMatchObject({
      status: "skipped",
      last_error: "opted_out",
    });

    const urgent = await callJson<{ id: string }>("/api/pengumuman", {
      token: staff.token,
      body: { title: "Banjir", body: "Air naik di blok C, segera ungsikan kendaraan.", urgent: true },
    });
    const urgentLog = await logOf(`${rt.id}:pengumuman:${urgent.body.id}:v1`);
    const now = urgentLog.find((r) => r.user_id === sleepy.id);
    expect(now).toMatchObject({ status: "queued", not_before: null });
    expect(JSON.parse(now?.payload ?? "{}").title).toBe("[PENTING] Banjir");
  });

  it("sends to the chosen blocks only and refuses an unknown block", async () => {
    const rt = await createTenant();
    const staff = await rt.member("sekretaris");
    const unit = async (block: string) =>
      (
        await callJson<{ id: string }>("/api/kependudukan/units", {
          token: staff.token,
          body: { block, number: "1" },
        })
      ).body.id;
    const [unitA, unitB] = [await unit("A"), await unit("B")];
    const inA = await rt.member("warga", { unitId: unitA });
    const inB = await rt.member("warga", { unitId: unitB });
    await devicesFor(rt, [inA, inB]);
    expectProblem(
      await callJson("/api/pengumuman", {
        token: staff.token,
        body: { title: "Air mati", body: "Blok Z", audience: { scope: "blok", blocks: ["Z"] } },
      }),
      400,
      "unknown_block",
    );
    const res = await callJson<{ id: string; audience: unknown }>("/api/pengumuman", {
      token: staff.token,
      body: { title: "Air mati", body: "Blok A saja", audience: { scope: "blok", blocks: ["a"] } },
    });
    expect(res.body.audience).toEqual({ scope: "blok", blocks: ["A"] });
    const log = await logOf(`${rt.id}:pengumuman:${res.body.id}:v1`);
    expect(log.map((r) => r.user_id)).toEqual([inA.id]);
  });

  it("sends a fan-out owed since the notification service was down from the hourly job, once", async () => {
    const rt = await createTenant();
    const staff = await rt.member("sekretaris");
    const resident = await rt.member("warga");
    await devicesFor(rt, [resident]);
    const created = await callJson<{ id: string }>("/api/pengumuman", {
      token: staff.token,
      body: { title: "Jadwal ronda", body: "Blok A malam Jumat." },
    });
    const edit = await callJson<{ version: number }>(`/api/pengumuman/${created.body.id}`, {
      method: "PUT",
      token: staff.token,
      body: { body: "Blok A dan B malam Jumat." },
    });
    expect(edit.body.version).toBe(2);
    // As if the service had been down for version 2: the row still owes its fan-out.
    await tenantD1(rt)
      .prepare("UPDATE pengumuman SET notified_version = 1 WHERE id = ?")
      .bind(created.body.id)
      .run();
    await env.NOTIFY_DB_TEST.prepare("DELETE FROM messages WHERE reference = ?")
      .bind(`${rt.id}:pengumuman:${created.body.id}:v2`)
      .run();
    await env.NOTIFY_DB_TEST.prepare(
      "DELETE FROM idempotency_keys WHERE scope_key LIKE 'fanout:%' AND instr(scope_key, ?) > 0",
    )
      .bind(created.body.id)
      .run();
    const pending = await callJson<{ deliveryPending: boolean }>(`/api/pengumuman/${created.body.id}`, {
      token: staff.token,
    });
    expect(pending.body.deliveryPending).toBe(true);
    const ctx = systemPlatformCtx(bindings, "test");
    await runScheduled(ctx, jobs, CRON.HOURLY, new Date("2031-01-01T03:00:00Z"));
    await runScheduled(ctx, jobs, CRON.HOURLY, new Date("2031-01-01T04:00:00Z"));
    const log = await logOf(`${rt.id}:pengumuman:${created.body.id}:v2`);
    expect(log.filter((r) => r.user_id === resident.id)).toHaveLength(1);
    const after = await callJson<{ deliveryPending: boolean }>(`/api/pengumuman/${created.body.id}`, {
      token: staff.token,
    });
    expect(after.body.deliveryPending).toBe(false);
  });

  it("lets residents read but not write or see the delivery summary", async () => {
    expectProblem(
      await callJson("/api/pengumuman", { token: warga.token, body: { title: "Halo", body: "x" } }),
      403,
      "forbidden_role",
    );
    const created = await callJson<{ id: string }>("/api/pengumuman", {
      token: sek.token,
      body: { title: "Rapat warga", body: "Jumat malam." },
    });
    expect((await callJson(`/api/pengumuman/${created.body.id}`, { token: warga.token })).status).toBe(200);
    expectProblem(
      await callJson(`/api/pengumuman/${created.body.id}/pengiriman`, { token: warga.token }),
      403,
      "forbidden_role",
    );
    expectProblem(
      await callJson("/api/pengumuman", {
        token: sek.token,
        body: { title: "Rapat", body: "x", channels: { push: false } },
      }),
      400,
      "invalid_input",
    );
  });
});

describe("push tokens and preferences", () => {
  it("registers a token, moves it between accounts, and deletes only the caller's own", async () => {
    const token = `fcm-${unique("dev")}`;
    const res = await callJson<{ token: string; platform: string }>("/api/user/push-tokens", {
      token: warga.token,
      body: { token, platform: "ios" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token, platform: "ios" });
    const row = await env.NOTIFY_DB_TEST.prepare("SELECT user_id, tenant FROM devices WHERE token = ?")
      .bind(token)
      .first<{ user_id: string; tenant: string }>();
    expect(row).toEqual({ user_id: warga.id, tenant: tenant.slug });

    expectProblem(
      await callJson(`/api/user/push-tokens/${encodeURIComponent(token)}`, {
        method: "DELETE",
        token: bendahara.token,
      }),
      404,
      "push_token_not_found",
    );
    // The same phone signed in as another account: the token moves.
    await callJson("/api/user/push-tokens", { token: bendahara.token, body: { token, platform: "ios" } });
    expectProblem(
      await callJson(`/api/user/push-tokens/${encodeURIComponent(token)}`, {
        method: "DELETE",
        token: warga.token,
      }),
      404,
      "push_token_not_found",
    );
    const del = await call(`/api/user/push-tokens/${encodeURIComponent(token)}`, {
      method: "DELETE",
      token: bendahara.token,
    });
    expect(del.status).toBe(204);
    expectProblem(
      await callJson("/api/user/push-tokens", {
        token: warga.token,
        body: { token: "x", platform: "windows" },
      }),
      400,
      "invalid_input",
    );
  });

  it("answers the defaults, stores a choice and refuses a malformed time", async () => {
    const fresh = await tenant.member("warga");
    const defaults = await callJson("/api/user/notification-preferences", { token: fresh.token });
    expect(defaults.body).toEqual({
      push: true,
      whatsapp: true,
      email: true,
      quietHours: { start: "21:00", end: "07:00" },
    });
    const choice = { push: true, whatsapp: false, email: true, quietHours: { start: "22:00", end: "05:30" } };
    await callJson("/api/user/notification-preferences", { method: "PUT", token: fresh.token, body: choice });
    expect((await callJson("/api/user/notification-preferences", { token: fresh.token })).body).toEqual(
      choice,
    );
    expectProblem(
      await callJson("/api/user/notification-preferences", {
        method: "PUT",
        token: fresh.token,
        body: { ...choice, quietHours: { start: "25:00", end: "05:30" } },
      }),
      400,
      "invalid_input",
    );
    expect((await callJson("/api/user/notification-preferences")).status).toBe(401);
  });

  it("pushes a staff reply to the complainant, opening the complaint", async () => {
    const complainant = await tenant.member("warga");
    await devicesFor(tenant, [complainant]);
    const complaint = await callJson<{ id: string }>("/api/pengaduan", {
      token: complainant.token,
      body: { title: "Lampu jalan mati", description: "Depan rumah no. 7 gelap", category: "infrastruktur" },
    });
    await callJson(`/api/pengaduan/${complaint.body.id}`, {
      method: "PUT",
      token: sek.token,
      body: { status: "diproses", response: "Teknisi datang besok" },
    });
    const log = await logOf(`${tenant.id}:pengaduan:${complaint.body.id}`);
    expect(log.map((r) => [r.channel, r.recipient])).toEqual([["push", `fcm-${complainant.id}`]]);
    expect(JSON.parse(log[0]?.payload ?? "{}")).toMatchObject({
      title: "Pengaduan sedang diproses",
      data: { screen: "pengaduan", id: complaint.body.id },
    });
  });
});

describe("agenda", () => {
  it("lists what has not ended, soonest first, filters by Jakarta day and validates the window", async () => {
    const rt = await createTenant();
    const staff = await rt.member("sekretaris");
    const resident = await rt.member("warga");
    const make = (title: string, start: string, end: string) =>
      callJson<{ id: string; start: string }>("/api/agenda", {
        token: staff.token,
        body: { title, place: "Balai warga", start, end },
      });
    await make("Lama", "2020-01-01T19:00:00+07:00", "2020-01-01T21:00:00+07:00");
    const later = await make("Lomba 17-an", "2031-08-17T08:00:00+07:00", "2031-08-17T12:00:00+07:00");
    const sooner = await make("Rapat", "2031-08-16T23:30:00+07:00", "2031-08-17T01:00:00+07:00");
    expect(sooner.body.start).toBe("2031-08-16T23:30:00+07:00");
    const list = await callJson<{ items: { title: string }[]; nextCursor: string | null }>(
      "/api/agenda?limit=1",
      {
        token: resident.token,
      },
    );
    expect(list.body.items.map((a) => a.title)).toEqual(["Rapat"]);
    const next = await callJson<{ items: { title: string }[] }>(
      `/api/agenda?limit=1&cursor=${list.body.nextCursor}`,
      {
        token: resident.token,
      },
    );
    expect(next.body.items.map((a) => a.title)).toEqual(["Lomba 17-an"]);
    // The cursor is the last event's start and id (one format with the other keyset lists).
    expect(openCursor("/api/agenda", list.body.nextCursor ?? "")).toMatch(
      /^2031-08-16T16:30:00(\.000)?Z~[0-9A-Z]{26}$/,
    );
    expectProblem(
      await callJson("/api/agenda?cursor=not-a-cursor", { token: resident.token }),
      400,
      "invalid_cursor",
    );
    const day = await callJson<{ items: { id: string }[] }>("/api/agenda?from=2031-08-16&to=2031-08-16", {
      token: resident.token,
    });
    expect(day.body.items.map((a) => a.id)).toEqual([sooner.body.id]);
    expectProblem(
      await make("Terbalik", "2031-01-02T10:00:00+07:00", "2031-01-02T09:00:00+07:00"),
      400,
      "invalid_input",
    );
    expectProblem(
      await callJson(`/api/agenda/${later.body.id}`, {
        method: "PUT",
        token: staff.token,
        body: { end: "2031-08-17T07:00:00+07:00" },
      }),
      400,
      "invalid_window",
    );
    expectProblem(
      await callJson("/api/agenda", {
        token: resident.token,
        body: { title: "X", place: "Y", start: "2031-01-01T10:00:00Z", end: "2031-01-01T11:00:00Z" },
      }),
      403,
      "forbidden_role",
    );
  });

  it("reminds members at 18:00 WIB the evening before, once, and again after a move", async () => {
    const rt = await createTenant();
    const staff = await rt.member("sekretaris");
    const resident = await rt.member("warga");
    await devicesFor(rt, [resident]);
    const event = await callJson<{ id: string }>("/api/agenda", {
      token: staff.token,
      body: {
        title: "Posyandu",
        place: "Pos RW",
        start: "2031-03-10T08:00:00+07:00",
        end: "2031-03-10T11:00:00+07:00",
      },
    });
    const ctx = systemPlatformCtx(bindings, "test");
    const reminders = async () =>
      (
        await env.NOTIFY_DB_TEST.prepare(
          "SELECT reference, payload FROM messages WHERE substr(reference, 1, length(?1)) = ?1 AND user_id = ?2 ORDER BY id",
        )
          .bind(`${rt.id}:agenda:${event.body.id}:`, resident.id)
          .all<{ reference: string; payload: string }>()
      ).results;

    // 17:00 WIB the day before: too early.
    await runScheduled(ctx, jobs, CRON.HOURLY, new Date("2031-03-09T10:00:00Z"));
    expect(await reminders()).toEqual([]);
    // 18:00 WIB: the reminder; the 19:00 run and a repeated 18:00 run send nothing more.
    await runScheduled(ctx, jobs, CRON.HOURLY, new Date("2031-03-09T11:00:00Z"));
    await runScheduled(ctx, jobs, CRON.HOURLY, new Date("2031-03-09T11:00:00Z"));
    await runScheduled(ctx, jobs, CRON.HOURLY, new Date("2031-03-09T12:00:00Z"));
    const sent = await reminders();
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]?.payload ?? "{}")).toMatchObject({
      title: "Besok: Posyandu",
      body: "Pukul 08:00 WIB di Pos RW.",
      data: { screen: "agenda", id: event.body.id },
    });
    // Moved a day later: reminded again the evening before its new date.
    await callJson(`/api/agenda/${event.body.id}`, {
      method: "PUT",
      token: staff.token,
      body: { start: "2031-03-11T08:00:00+07:00", end: "2031-03-11T11:00:00+07:00" },
    });
    await runScheduled(ctx, jobs, CRON.HOURLY, new Date("2031-03-10T11:00:00Z"));
    expect(await reminders()).toHaveLength(2);
  });
});

describe("watch summary", () => {
  it("answers dues, the three latest news titles and campaigns in under 2 KB, cacheable for 60 s", async () => {
    const rt = await createTenant();
    const staff = await rt.member("admin");
    const resident = await rt.member("warga");
    for (const n of [1, 2, 3, 4]) {
      await callJson("/api/berita", {
        token: staff.token,
        body: { title: `Berita ${n} ${"panjang ".repeat(20)}`, body: "Isi".repeat(2000), status: "terbit" },
      });
    }
    await callJson("/api/berita", { token: staff.token, body: { title: "Draf rahasia", body: "x" } });
    const res = await call("/api/watch/summary", { token: resident.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("private, max-age=60");
    const text = await res.text();
    expect(new TextEncoder().encode(text).length).toBeLessThan(2048);
    const body = JSON.parse(text) as { dues: unknown; news: { title: string }[]; campaigns: unknown[] };
    expect(body.dues).toEqual({ total: 0, count: 0 });
    expect(body.campaigns).toEqual([]);
    expect(body.news.map((n) => n.title.slice(0, 8))).toEqual(["Berita 4", "Berita 3", "Berita 2"]);
    expect((await call("/api/watch/summary")).status).toBe(401);
  });
});
