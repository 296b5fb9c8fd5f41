import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { modules } from "../../../src/app";
import { loadConfig } from "../../../src/core/env";
import { log } from "../../../src/core/http/log";
import { slotCount } from "../../../src/core/tenancy/slots";
import { systemPlatformCtx } from "../../../src/core/tenancy/system";
import { platformHealth } from "../../../src/modules/platform-ops/service";
import { notifyFor } from "../../../src/platform/notify/notifier";
import { runWithRequestId } from "../../../src/platform/notify/requestId";
import { bindings, call, callJson, createTenant, operatorToken } from "../../helpers/harness";

interface Health {
  status: "ok" | "degraded";
  platformDb: { answers: boolean };
  slots: {
    total: number;
    used: number;
    free: number;
    latestMigration: string | null;
    problems: number;
    items: {
      slot: number;
      binding: string;
      tenant: { slug: string; status: string } | null;
      answers: boolean;
      migration: string | null;
      behind: number;
    }[];
  };
  notify: {
    answers: boolean;
    backlog?: { total: number };
    deadLetters?: number;
    lastFailures?: Record<"email" | "push" | "whatsapp", { messageId: string; error: string | null }[]>;
  };
  tenantCacheTtlSeconds: number;
}

const slotDb = (slot: number) =>
  (bindings as unknown as Record<string, D1Database>)[
    `TENANT_DB_${String(slot).padStart(2, "0")}`
  ] as D1Database;

describe("GET /api/platform/health", () => {
  it("shows every slot with its tenant, migration and liveness, the notify pipeline and the cache TTL", async () => {
    const tenant = await createTenant();
    await env.NOTIFY_DB_TEST.prepare(
      "INSERT INTO messages (id, channel, status, recipient, payload, attempts, last_error, created_at, updated_at) VALUES ('01HEALTH00000000000000000A', 'whatsapp', 'dead', '6281200000077', '{}', 6, 'gateway 502', ?1, ?1)",
    )
      .bind(new Date().toISOString())
      .run();

    const { status, body } = await callJson<Health>("/api/platform/health", { token: await operatorToken() });
    expect(status).toBe(200);
    expect(body.platformDb.answers).toBe(true);
    expect(body.slots.total).toBe(slotCount(bindings));
    expect(body.slots.items).toHaveLength(body.slots.total);
    expect(body.slots.used + body.slots.free).toBe(body.slots.total);
    const mine = body.slots.items.find((s) => s.tenant?.slug === tenant.slug);
    expect(mine).toMatchObject({ answers: true, behind: 0, migration: body.slots.latestMigration });
    expect(body.slots.latestMigration).toMatch(/^\d{4}_/);
    expect(body.notify.answers).toBe(true);
    expect(body.notify.deadLetters).toBeGreaterThanOrEqual(1);
    expect(body.notify.lastFailures?.whatsapp.map((f) => f.messageId)).toContain(
      "01HEALTH00000000000000000A",
    );
    expect(JSON.stringify(body)).not.toContain("6281200000077");
    expect(body.tenantCacheTtlSeconds).toBe(30);
    expect(body.status).toBe(body.slots.problems === 0 ? "ok" : "degraded");
  });

  it("a tenant's slot behind the bundled migrations makes the report degraded", async () => {
    const tenant = await createTenant();
    const db = slotDb(tenant.slot);
    const last = await db.prepare("SELECT id, name FROM d1_migrations ORDER BY id DESC LIMIT 1").first<{
      id: number;
      name: string;
    }>();
    await db.prepare("DELETE FROM d1_migrations WHERE id = ?").bind(last?.id).run();
    try {
      const { body } = await callJson<Health>("/api/platform/health", { token: await operatorToken() });
      const mine = body.slots.items.find((s) => s.tenant?.slug === tenant.slug);
      expect(mine?.behind).toBe(1);
      expect(body.slots.problems).toBeGreaterThanOrEqual(1);
      expect(body.status).toBe("degraded");
    } finally {
      await db.prepare("INSERT INTO d1_migrations (id, name) VALUES (?, ?)").bind(last?.id, last?.name).run();
    }
  });

  it("shows the notification service's delivery alerts; one in the last hour makes the report degraded", async () => {
    // Written as the notify consumer writes it (workers/notify/test/alerts.test.ts raises real ones).
    const lastAt = new Date().toISOString();
    const cause = `email|cloudflare|SUPPORT_TICKET_CREATED|health-test ${lastAt}`;
    await env.NOTIFY_DB_TEST.prepare(
      "INSERT INTO operator_alerts (cause, hour, channel, provider, kind, status, error, count, first_at, last_at, last_message_id, email_message_id) VALUES (?1, ?2, 'email', 'cloudflare', 'SUPPORT_TICKET_CREATED', 'retrying', 'health-test', 3, ?3, ?3, '01HEALTHALERT0000000000000', '01HEALTHALERTMAIL000000000')",
    )
      .bind(cause, lastAt.slice(0, 13), lastAt)
      .run();
    try {
      const base = systemPlatformCtx(bindings, "test");
      const soon = await platformHealth({
        ctx: { ...base, now: () => new Date(Date.parse(lastAt) + 30 * 60_000) },
      });
      const alertsOf = (report: typeof soon) =>
        "alerts" in report.notify ? (report.notify.alerts ?? []) : [];
      const alert = alertsOf(soon).find((a) => a.cause === cause);
      expect(alert).toMatchObject({
        status: "retrying",
        count: 3,
        emailed: true,
        kind: "SUPPORT_TICKET_CREATED",
      });
      expect(soon.status).toBe("degraded");
      // Two hours on, the alert is still listed (the last day's) but no longer degrades the report.
      const later = await platformHealth({
        ctx: { ...base, now: () => new Date(Date.parse(lastAt) + 2 * 3_600_000) },
      });
      expect(alertsOf(later).some((a) => a.cause === cause)).toBe(true);
      expect(later.status).toBe(later.slots.problems === 0 && later.platformDb.answers ? "ok" : "degraded");
      // The HTTP view carries the same list.
      const { body } = await callJson<Health & { notify: { alerts?: { cause: string }[] } }>(
        "/api/platform/health",
        { token: await operatorToken() },
      );
      expect(body.notify.alerts?.some((a) => a.cause === cause)).toBe(true);
    } finally {
      await env.NOTIFY_DB_TEST.prepare("DELETE FROM operator_alerts WHERE cause = ?1").bind(cause).run();
    }
  });

  it("reports the notification service as not answering instead of failing", async () => {
    const down = { fetch: async () => new Response("down", { status: 503 }) };
    const ctx = systemPlatformCtx({ ...bindings, NOTIFY: down } as unknown as typeof bindings, "test");
    const report = await platformHealth({ ctx });
    expect(report.notify).toMatchObject({ answers: false });
    expect(report.status).toBe("degraded");
    expect(report.platformDb.answers).toBe(true);
  });
});

describe("request ids across Workers", () => {
  it("the notification client forwards the id of the request in progress as X-Request-Id", async () => {
    const seen: (string | null)[] = [];
    const fake = {
      fetch: async (_url: string, init: RequestInit) => {
        seen.push(new Headers(init.headers).get("x-request-id"));
        return Response.json({ messageIds: ["01MSG"], replayed: false }, { status: 202 });
      },
    };
    const env = { ...bindings, NOTIFY: fake } as unknown as typeof bindings;
    await runWithRequestId("01TRACEAPI0000000000000000", () =>
      notifyFor(env).sendEmail({ template: "rapat", to: "warga@example.id", data: {} }),
    );
    await notifyFor(env).sendEmail({ template: "rapat", to: "warga@example.id", data: {} });
    expect(seen).toEqual(["01TRACEAPI0000000000000000", null]);
  });

  it("keeps a caller's id (ticket-mail sends mail-<hash>) and answers with it", async () => {
    const res = await call("/api/health", { headers: { "X-Request-Id": "mail-0123456789abcdef" } });
    expect(res.headers.get("X-Request-Id")).toBe("mail-0123456789abcdef");
  });
});

describe("secret redaction in the API's logs", () => {
  it("replaces configured secret values and secret shapes in every log line", () => {
    loadConfig(bindings);
    const lines: string[] = [];
    const spy = vi.spyOn(console, "warn").mockImplementation((line: string) => {
      lines.push(line);
    });
    try {
      log("warn", "provider_failed", {
        error: `upstream said Bearer abc.def.ghi and key ${bindings.INTERNAL_API_KEY}`,
        token: "refresh-token-value",
        detail: "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl",
        pepper: bindings.PASSWORD_PEPPER,
        path: "/api/health",
      });
    } finally {
      spy.mockRestore();
    }
    const [line] = lines;
    expect(line).toBeDefined();
    expect(JSON.parse(line as string)).toMatchObject({ event: "provider_failed", path: "/api/health" });
    for (const secret of [
      bindings.INTERNAL_API_KEY,
      bindings.PASSWORD_PEPPER,
      "abc.def.ghi",
      "refresh-token-value",
      "eyJhbGciOiJIUzI1NiJ9",
    ]) {
      expect(line).not.toContain(secret);
    }
  });
});

describe("personal data declarations (UU 27/2022)", () => {
  it("every text column of every tenant table is classified by exactly one module, and nothing stale is", async () => {
    const tenant = await createTenant();
    const db = slotDb(tenant.slot);
    const tables = await db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name",
      )
      .all<{ name: string }>();
    const owners = new Map<string, string[]>();
    const classified = new Map<string, string[]>();
    for (const mod of modules) {
      for (const [table, columns] of Object.entries(mod.personalData ?? {})) {
        owners.set(table, [...(owners.get(table) ?? []), mod.name]);
        for (const column of [
          ...(columns.subjects ?? []),
          ...(columns.personal ?? []),
          ...(columns.other ?? []),
        ]) {
          const key = `${table}.${column}`;
          classified.set(key, [...(classified.get(key) ?? []), mod.name]);
        }
      }
    }
    const problems: string[] = [];
    const textColumns = new Set<string>();
    for (const { name } of tables.results) {
      if ((owners.get(name) ?? []).length !== 1) {
        problems.push(`table ${name}: declared by ${owners.get(name)?.join(", ") || "no module"}`);
      }
      const info = await db.prepare(`PRAGMA table_info(${name})`).all<{ name: string; type: string }>();
      for (const column of info.results.filter((c) => /TEXT/i.test(c.type))) {
        const key = `${name}.${column.name}`;
        textColumns.add(key);
        const by = classified.get(key) ?? [];
        if (by.length !== 1) {
          problems.push(`${key}: classified ${by.length} times`);
        }
      }
    }
    for (const key of classified.keys()) {
      if (!textColumns.has(key)) {
        problems.push(`${key}: declared but not a text column of a tenant table`);
      }
    }
    expect(problems).toEqual([]);
    expect(textColumns.size).toBeGreaterThan(100);
  });
});

describe("erasure of one person's data from a tenant", () => {
  it("leaves no personal field of theirs and no id of theirs behind, keeps every row and foreign key, and is audited", async () => {
    const tenant = await createTenant();
    const person = await tenant.member("warga");
    const neighbour = await tenant.member("warga");
    const db = slotDb(tenant.slot);
    const now = new Date().toISOString();
    const rows = [
      db
        .prepare(
          "INSERT INTO complaints (id, resident_id, title, description, category, status, photo, location, updated_at) VALUES (?, ?, ?, ?, 'kebersihan', 'baru', ?, ?, ?)",
        )
        .bind(
          "01ERASECOMPLAINT0000000000",
          person.id,
          "Sampah depan rumah Budi Santoso",
          "Rumah no 7 milik Budi",
          "files/budi.jpg",
          "Blok C7",
          now,
        ),
      db
        .prepare(
          "INSERT INTO complaints (id, resident_id, title, description, category, status, updated_at) VALUES (?, ?, 'Lampu jalan mati', 'Tiang dekat pos', 'fasilitas', 'baru', ?)",
        )
        .bind("01ERASECOMPLAINT0000000001", neighbour.id, now),
      db
        .prepare(
          "INSERT INTO complaint_messages (id, complaint_id, author_id, by_staff, body, created_at) VALUES (?, ?, ?, 0, 'Nomor saya 081298765432', ?)",
        )
        .bind("01ERASEMESSAGE000000000000", "01ERASECOMPLAINT0000000001", person.id, now),
      db
        .prepare(
          "INSERT INTO suggestions (id, sender_id, anonymous, body) VALUES (?, ?, 0, 'Saran dari Budi Santoso')",
        )
        .bind("01ERASESUGGESTION000000000", person.id),
      db
        .prepare(
          "INSERT INTO visitors (id, resident_id, guest_name, purpose, visit_at, status, vehicle_plate, identity, updated_at) VALUES (?, ?, 'Siti Aminah', 'Arisan', ?, 'menunggu', 'B 1234 XYZ', '3174012345670001', ?)",
        )
        .bind("01ERASEVISITOR000000000000", person.id, now, now),
    ];
    await db.batch(rows);
    const countRows = async () => {
      const counts: Record<string, number> = {};
      for (const table of ["complaints", "complaint_messages", "suggestions", "visitors"]) {
        counts[table] =
          (await db.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0;
      }
      return counts;
    };
    const before = await countRows();

    const res = await callJson<{ reference: string; rows: Record<string, number> }>(
      `/api/platform/tenants/${tenant.id}/erasures`,
      { token: await operatorToken(), body: { userId: person.id } },
    );
    expect(res.status).toBe(200);
    expect(res.body.reference).toMatch(/^erased:[0-9a-f]{16}$/);
    expect(res.body.rows).toMatchObject({ "complaints.resident_id": 1, "visitors:personal": 1 });

    // Every text column of every tenant table: neither the id nor any personal value is left.
    const tables = await db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .all<{ name: string }>();
    let dump = "";
    for (const { name } of tables.results) {
      dump += JSON.stringify((await db.prepare(`SELECT * FROM ${name}`).all()).results);
    }
    for (const secret of [
      person.id,
      "Budi",
      "081298765432",
      "Siti Aminah",
      "B 1234 XYZ",
      "3174012345670001",
      "budi.jpg",
      "Blok C7",
    ]) {
      expect(dump).not.toContain(secret);
    }
    // Records stay, pointing at one anonymous reference; the neighbour's are untouched.
    expect(await countRows()).toEqual(before);
    const mine = await db
      .prepare("SELECT resident_id, title, photo FROM complaints WHERE id = '01ERASECOMPLAINT0000000000'")
      .first();
    expect(mine).toEqual({ resident_id: res.body.reference, title: "[dihapus]", photo: null });
    const message = await db.prepare("SELECT complaint_id, author_id FROM complaint_messages").first();
    expect(message).toEqual({ complaint_id: "01ERASECOMPLAINT0000000001", author_id: res.body.reference });
    const theirs = await db
      .prepare("SELECT resident_id, title FROM complaints WHERE id = '01ERASECOMPLAINT0000000001'")
      .first();
    expect(theirs).toEqual({ resident_id: neighbour.id, title: "Lampu jalan mati" });
    expect((await db.prepare("PRAGMA foreign_key_check").all()).results).toEqual([]);
    const logged = await db
      .prepare("SELECT action, target_id FROM audit_log WHERE action = 'personal_data.erased'")
      .all<{ action: string; target_id: string }>();
    expect(logged.results).toEqual([{ action: "personal_data.erased", target_id: res.body.reference }]);

    // Repeating it finds nothing more to change.
    const again = await callJson<{ reference: string; rows: Record<string, number> }>(
      `/api/platform/tenants/${tenant.id}/erasures`,
      { token: await operatorToken(), body: { userId: person.id } },
    );
    expect(again.body).toEqual({ reference: res.body.reference, rows: {} });
  });

  it("keeps the finance books, the market and the file store whole while blanking what the person wrote", async () => {
    const tenant = await createTenant();
    const person = await tenant.member("warga");
    const treasurer = await tenant.member("bendahara");
    const db = slotDb(tenant.slot);
    const now = new Date().toISOString();
    await db.batch([
      db
        .prepare(
          "INSERT INTO files (id, purpose, r2_key, content_type, size, sha256, uploaded_by) VALUES ('01ERASEFILE000000000000000', 'pasar', 'tenants/t/files/pasar/01ERASEFILE000000000000000.jpg', 'image/jpeg', 1, 'aa', ?)",
        )
        .bind(person.id),
      db
        .prepare(
          "INSERT INTO pasar_listings (id, seller_id, title, description, category, condition, status, moderation_reason, moderated_by, moderated_at, updated_at) VALUES ('01ERASELISTING000000000000', ?, 'Kue Bu Budi', 'Hubungi 081298765432', 'makanan', 'baru', 'aktif', 'Nomor Budi dihapus', ?, ?, ?)",
        )
        .bind(person.id, treasurer.id, now, now),
      db.prepare(
        "INSERT INTO pasar_photos (file_id, listing_id, position) VALUES ('01ERASEFILE000000000000000', '01ERASELISTING000000000000', 0)",
      ),
      db
        .prepare(
          "INSERT INTO campaigns (id, title, description, target, deadline, status, created_by, updated_at) VALUES ('01ERASECAMPAIGN00000000000', 'Renovasi pos', 'Atap bocor', 1000000, '2099-01-01', 'aktif', ?, ?)",
        )
        .bind(treasurer.id, now),
      db
        .prepare(
          "INSERT INTO cash_entries (id, kind, category, amount, date, note, source, source_id, created_by) VALUES ('01ERASECASH000000000000000', 'masuk', 'Donasi', 50000, '2024-01-01', 'Donasi: Renovasi pos', 'donasi', '01ERASEDONATION00000000000', ?)",
        )
        .bind(treasurer.id),
      db
        .prepare(
          "INSERT INTO donations (id, campaign_id, donor_id, anonymous, amount, note, status, recorded_by, decided_by, decided_at, cash_entry_id, updated_at) VALUES ('01ERASEDONATION00000000000', '01ERASECAMPAIGN00000000000', ?, 0, 50000, 'Dari keluarga Budi', 'dikonfirmasi', ?, ?, ?, '01ERASECASH000000000000000', ?)",
        )
        .bind(person.id, person.id, treasurer.id, now, now),
      db
        .prepare(
          "INSERT INTO asisten_usage (user_id, day, requests, tokens) VALUES (?, '2024-01-01', 3, 100)",
        )
        .bind(person.id),
    ]);

    const res = await callJson<{ reference: string; rows: Record<string, number> }>(
      `/api/platform/tenants/${tenant.id}/erasures`,
      { token: await operatorToken(), body: { userId: person.id } },
    );
    expect(res.status).toBe(200);
    const reference = res.body.reference;

    let dump = "";
    for (const table of [
      "files",
      "pasar_listings",
      "pasar_photos",
      "donations",
      "cash_entries",
      "asisten_usage",
    ]) {
      dump += JSON.stringify((await db.prepare(`SELECT * FROM ${table}`).all()).results);
    }
    for (const secret of [person.id, "Budi", "081298765432"]) {
      expect(dump).not.toContain(secret);
    }
    expect(
      await db
        .prepare("SELECT seller_id, title, description, moderation_reason, moderated_by FROM pasar_listings")
        .first(),
    ).toEqual({
      seller_id: reference,
      title: "[dihapus]",
      description: "[dihapus]",
      moderation_reason: null,
      moderated_by: treasurer.id,
    });
    expect(
      await db
        .prepare(
          "SELECT donor_id, note, amount, status, recorded_by, decided_by, cash_entry_id FROM donations",
        )
        .first(),
    ).toEqual({
      donor_id: reference,
      note: null,
      amount: 50000,
      status: "dikonfirmasi",
      recorded_by: reference,
      decided_by: treasurer.id,
      cash_entry_id: "01ERASECASH000000000000000",
    });
    // The ledger row is untouched: it names no one.
    expect(await db.prepare("SELECT note, amount, created_by FROM cash_entries").first()).toEqual({
      note: "Donasi: Renovasi pos",
      amount: 50000,
      created_by: treasurer.id,
    });
    expect(await db.prepare("SELECT uploaded_by, r2_key FROM files").first()).toEqual({
      uploaded_by: reference,
      r2_key: "tenants/t/files/pasar/01ERASEFILE000000000000000.jpg",
    });
    expect(await db.prepare("SELECT user_id, requests FROM asisten_usage").first()).toEqual({
      user_id: reference,
      requests: 3,
    });
  });

  it("answers 404 for an unknown tenant", async () => {
    const res = await callJson("/api/platform/tenants/01NOSUCHTENANT000000000000/erasures", {
      token: await operatorToken(),
      body: { userId: "01NOSUCHUSER0000000000000A" },
    });
    expect(res.status).toBe(404);
  });
});
