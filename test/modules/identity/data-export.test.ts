import { describe, expect, it } from "vitest";
import { modules } from "../../../src/app";
import { newId } from "../../../src/core/ids";
import type { PersonalColumns } from "../../../src/core/module";
import { forgetTenant } from "../../../src/core/tenancy/contexts";
import type { DataExport } from "../../../src/modules/identity/dataExport";
import { tenantD1 } from "../../helpers/d1";
import { bindings, callJson, createTenant, expectProblem, setTenantStatus } from "../../helpers/harness";

const platform = bindings.PLATFORM_DB;
const declarations: (readonly [string, PersonalColumns])[] = modules.flatMap((m) =>
  Object.entries(m.personalData ?? {}),
);
const now = () => new Date().toISOString();
const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join("");

/**
 * Inserts one row, filling every required column the test does not name: text with a unique value,
 * numbers with 1 (integer keys with a large random number), so any declared table can be given a row.
 */
async function insertRow(db: D1Database, table: string, values: Record<string, unknown>): Promise<void> {
  const info = await db.prepare(`PRAGMA table_info("${table}")`).all<{
    name: string;
    type: string;
    notnull: number;
    dflt_value: unknown;
    pk: number;
  }>();
  const row: Record<string, unknown> = { ...values };
  for (const c of info.results) {
    if (c.name in row || c.dflt_value !== null || !(c.notnull || c.pk)) {
      continue;
    }
    row[c.name] = /INT/i.test(c.type)
      ? c.pk
        ? 1000 + Math.floor(Math.random() * 1e9)
        : 1
      : /REAL/i.test(c.type)
        ? 1
        : `${table}.${c.name}:${newId()}`;
  }
  const columns = Object.keys(row);
  await db
    .prepare(
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((_, i) => `?${i + 1}`).join(", ")})`,
    )
    .bind(...columns.map((c) => row[c] ?? null))
    .run();
}

async function exportOf(token: string) {
  return callJson<DataExport>("/api/user/data-export", { token });
}

const community = (body: DataExport, slug: string) => {
  const found = body.communities.find((c) => c.tenant.slug === slug);
  if (!found) {
    throw new Error(`no community ${slug} in the export`);
  }
  return found;
};

/**
 * Budi: a resident of RT A (head of his family there), sekretaris of RT B, a member of RT C (suspended).
 * Siti: his wife, a resident at the same house in RT A, on the same family card. Each account is linked
 * to its own person on the card (memberships.person_id). Down the street lives a namesake: another
 * BUDI SANTOSO heading another card, whose records are his own.
 */
async function household() {
  const [a, b, c] = [await createTenant(), await createTenant(), await createTenant()];
  const dbA = tenantD1(a);
  const dbB = tenantD1(b);
  const unitId = newId();
  await insertRow(dbA, "units", { id: unitId, block: "C", number: digits(4), updated_at: now() });
  const wa = `62812${digits(8)}`;
  const person = await a.member("warga", { unitId, whatsapp: wa });
  const neighbour = await a.member("warga", { unitId });
  await platform.batch([
    platform.prepare("UPDATE users SET name = 'Budi Santoso' WHERE id = ?").bind(person.id),
    platform.prepare("UPDATE users SET name = 'Siti Aminah' WHERE id = ?").bind(neighbour.id),
  ]);
  await insertRow(platform, "memberships", {
    id: newId(),
    user_id: person.id,
    tenant_id: b.id,
    roles: JSON.stringify(["sekretaris"]),
  });
  await insertRow(platform, "memberships", {
    id: newId(),
    user_id: person.id,
    tenant_id: c.id,
    roles: "[]",
  });
  await setTenantStatus(c.slug, "suspended");
  forgetTenant(c.slug);

  const budiNik = `317401${digits(10)}`;
  const sitiNik = `317401${digits(10)}`;
  const namesakeNik = `317401${digits(10)}`;
  const cardId = newId();
  const budiMemberId = newId();
  const sitiMemberId = newId();
  await insertRow(dbA, "family_cards", {
    id: cardId,
    kk_number: `3174${digits(12)}`,
    unit_id: unitId,
    head_name: "BUDI SANTOSO",
    head_nik: budiNik,
    head_whatsapp: `0${wa.slice(2)}`,
    updated_at: now(),
  });
  await insertRow(dbA, "family_members", {
    id: budiMemberId,
    family_card_id: cardId,
    name: "BUDI SANTOSO",
    nik: budiNik,
    relationship: "kepala_keluarga",
    sex: "L",
    updated_at: now(),
  });
  await insertRow(dbA, "family_members", {
    id: sitiMemberId,
    family_card_id: cardId,
    name: "Siti Aminah",
    nik: sitiNik,
    relationship: "istri",
    sex: "P",
    updated_at: now(),
  });
  await insertRow(dbA, "mutations", {
    id: newId(),
    kind: "pindah_masuk",
    date: "2024-03-01",
    family_card_id: cardId,
    member_id: budiMemberId,
    person_name: "BUDI SANTOSO",
    place: "Bekasi",
  });
  // The namesake's house, card, person record and life event: same name, same WhatsApp number written
  // on his card by mistake, same street; none of it is Budi's.
  const namesakeUnit = newId();
  const namesakeCard = newId();
  const namesakeId = newId();
  await insertRow(dbA, "units", { id: namesakeUnit, block: "C", number: digits(4), updated_at: now() });
  await insertRow(dbA, "family_cards", {
    id: namesakeCard,
    kk_number: `3174${digits(12)}`,
    unit_id: namesakeUnit,
    head_name: "Budi Santoso",
    head_nik: namesakeNik,
    head_whatsapp: wa,
    updated_at: now(),
  });
  await insertRow(dbA, "family_members", {
    id: namesakeId,
    family_card_id: namesakeCard,
    name: "Budi Santoso",
    nik: namesakeNik,
    relationship: "kepala_keluarga",
    sex: "L",
    updated_at: now(),
  });
  await insertRow(dbA, "mutations", {
    id: newId(),
    kind: "pindah_masuk",
    date: "2025-07-01",
    family_card_id: namesakeCard,
    member_id: namesakeId,
    person_name: "Budi Santoso",
    place: "Tangerang Selatan",
  });
  await platform.batch([
    platform
      .prepare("UPDATE memberships SET person_id = ? WHERE user_id = ? AND tenant_id = ?")
      .bind(budiMemberId, person.id, a.id),
    platform
      .prepare("UPDATE memberships SET person_id = ? WHERE user_id = ? AND tenant_id = ?")
      .bind(sitiMemberId, neighbour.id, a.id),
  ]);
  await insertRow(dbA, "complaints", {
    id: newId(),
    resident_id: person.id,
    title: "Lampu jalan Blok C mati",
    description: "Sejak Senin malam",
    category: "fasilitas",
    status: "baru",
    updated_at: now(),
  });
  await insertRow(dbA, "complaints", {
    id: newId(),
    resident_id: neighbour.id,
    title: "Keluhan rahasia tetangga",
    description: "Jangan bocor",
    category: "lainnya",
    status: "baru",
    updated_at: now(),
  });
  await insertRow(dbA, "visitors", {
    id: newId(),
    resident_id: person.id,
    unit_id: unitId,
    guest_name: "Pak Joko",
    purpose: "Arisan keluarga",
    identity: "3275999988887777",
    visit_at: now(),
    status: "menunggu",
    updated_at: now(),
  });
  await insertRow(dbA, "audit_log", {
    id: newId(),
    actor_id: person.id,
    actor_role: "warga",
    action: "kendaraan.create",
    target_type: "vehicle",
    ip: "198.51.100.7",
    detail: JSON.stringify({ plate: "B 9999 ZZ" }),
  });
  await insertRow(dbA, "audit_log", {
    id: newId(),
    actor_id: neighbour.id,
    actor_role: "warga",
    action: "profil.update",
    target_type: "user",
    ip: "203.0.113.9",
  });
  // In RT B Budi is the secretary who decided another resident's letter.
  await insertRow(dbB, "letters", {
    id: newId(),
    resident_id: newId(),
    unit_id: newId(),
    jenis: "domisili",
    on_behalf_of: "self",
    subject_name: "Warga Lain Sekali",
    keperluan: "Keperluan rahasia orang lain",
    fields: "{}",
    status: "selesai",
    nomor_surat: `001/RT-B/${digits(6)}`,
    decided_by: person.id,
    updated_at: now(),
  });
  const ticketId = newId();
  await insertRow(platform, "support_tickets", {
    id: ticketId,
    number: 100_000 + Math.floor(Math.random() * 1e8),
    tenant_id: a.id,
    tenant_slug: a.slug,
    source: "tenant",
    category: "akun",
    title: "Tidak bisa masuk aplikasi",
    detail: "Mohon dibantu",
    status: "diproses",
    reply_token_hash: `reply-hash-${newId()}`,
    submitter_user_id: person.id,
    submitter_name: "Budi Santoso",
    updated_at: now(),
  });
  await insertRow(platform, "support_ticket_messages", {
    id: newId(),
    ticket_id: ticketId,
    author: "operator",
    via: "console",
    author_name: "Tim Warga",
    message: "Sudah kami periksa",
  });
  await insertRow(platform, "support_tickets", {
    id: newId(),
    number: 100_000 + Math.floor(Math.random() * 1e8),
    tenant_id: a.id,
    tenant_slug: a.slug,
    source: "tenant",
    category: "akun",
    title: "Tiket milik tetangga",
    detail: "Bukan punya Budi",
    status: "baru",
    reply_token_hash: `reply-hash-${newId()}`,
    submitter_user_id: neighbour.id,
    submitter_name: "Siti Aminah",
    updated_at: now(),
  });
  await insertRow(platform, "one_time_tokens", {
    id: newId(),
    purpose: "magic_link",
    token_hash: `ott-hash-${newId()}`,
    user_id: person.id,
    expires_at: now(),
  });
  return { a, b, c, dbA, dbB, person, neighbour, budiNik, sitiNik, namesakeNik, budiMemberId, unitId };
}

describe("GET /api/user/data-export", () => {
  it("gives a person everything of theirs across two communities and nothing of anyone else's", async () => {
    const { a, b, c, dbA, dbB, person, neighbour, budiNik, sitiNik, namesakeNik, budiMemberId } =
      await household();
    const res = await exportOf(person.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="warga-data-saya-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = res.body;
    expect(body.account).toMatchObject({ id: person.id, name: "Budi Santoso", hasPassword: true });
    expect(body.memberships.map((m) => [m.tenant.slug, m.roles, m.resident, m.personId])).toEqual([
      [a.slug, [], true, budiMemberId],
      [b.slug, ["sekretaris"], false, null],
      [c.slug, [], true, null],
    ]);
    expect(body.sessions.length).toBeGreaterThanOrEqual(1);
    expect(body.sessions[0]).toMatchObject({ tenant: a.slug, revokedAt: null });
    expect(body.signInLinks).toEqual([expect.objectContaining({ purpose: "magic_link" })]);
    expect(body.notificationPreferences).toMatchObject({ push: true, whatsapp: true, email: true });
    expect(body.supportTickets).toHaveLength(1);
    expect(body.supportTickets[0]).toMatchObject({
      title: "Tidak bisa masuk aplikasi",
      messages: [expect.objectContaining({ message: "Sudah kami periksa", author: "operator" })],
    });

    const inA = community(body, a.slug);
    expect(inA.status).toBe("included");
    expect(inA.tables.complaints?.own).toEqual([
      expect.objectContaining({ resident_id: person.id, title: "Lampu jalan Blok C mati" }),
    ]);
    // His own person record and the card he heads; not his wife's record.
    expect(inA.tables.family_members?.own).toEqual([expect.objectContaining({ nik: budiNik })]);
    expect(inA.tables.family_cards?.own).toEqual([expect.objectContaining({ head_nik: budiNik })]);
    expect(inA.tables.mutations?.own).toEqual([expect.objectContaining({ place: "Bekasi" })]);
    // The guest's name he typed, not the guest's identity number.
    const [visit] = inA.tables.visitors?.own ?? [];
    expect(visit).toMatchObject({ guest_name: "Pak Joko", purpose: "Arisan keluarga" });
    expect(visit).not.toHaveProperty("identity");
    // His own audit entries with his address, without the detail about what he acted on.
    const mine = inA.tables.audit_log?.own.find((r) => r.action === "kendaraan.create");
    expect(mine).toMatchObject({ actor_id: person.id, ip: "198.51.100.7" });
    expect(mine).not.toHaveProperty("detail");

    // In RT B he only decided someone else's letter: the row names him, its personal fields are not his.
    const inB = community(body, b.slug);
    expect(inB.tables.letters?.own).toEqual([]);
    expect(inB.tables.letters?.mentions).toEqual([
      expect.objectContaining({ decided_by: person.id, status: "selesai", jenis: "domisili" }),
    ]);
    expect(inB.tables.letters?.mentions[0]).not.toHaveProperty("subject_name");
    expect(inB.tables.letters?.mentions[0]).not.toHaveProperty("resident_id");
    expect(community(body, c.slug)).toEqual({
      tenant: expect.objectContaining({ slug: c.slug }),
      status: "suspended",
      tables: {},
    });

    const text = JSON.stringify(body);
    for (const theirs of [
      neighbour.id,
      "Siti Aminah",
      sitiNik,
      "Keluhan rahasia tetangga",
      "Warga Lain Sekali",
      "Keperluan rahasia orang lain",
      "3275999988887777",
      "B 9999 ZZ",
      "203.0.113.9",
      "Tiket milik tetangga",
      // The namesake down the street: his NIK, and the place he moved in from.
      namesakeNik,
      "Tangerang Selatan",
    ]) {
      expect(text).not.toContain(theirs);
    }

    // The disclosure is on record in each community read, and on the platform.
    for (const db of [dbA, dbB]) {
      const logged = await db
        .prepare(
          "SELECT actor_id, detail FROM audit_log WHERE action = 'personal_data.exported' AND target_id = ?",
        )
        .bind(person.id)
        .all<{ actor_id: string; detail: string }>();
      expect(logged.results).toHaveLength(1);
      expect(logged.results[0]?.actor_id).toBe(person.id);
    }
    const platformLog = await platform
      .prepare(
        "SELECT count(*) AS n FROM audit_log WHERE action = 'personal_data.exported' AND target_id = ?",
      )
      .bind(person.id)
      .first<{ n: number }>();
    expect(platformLog?.n).toBe(1);

    // His wife gets her own record from the same card, not his, and not the card he heads.
    const hers = community((await exportOf(neighbour.token)).body, a.slug);
    expect(hers.tables.family_members?.own).toEqual([expect.objectContaining({ nik: sitiNik })]);
    expect(hers.tables.family_cards).toBeUndefined();
    expect(JSON.stringify(hers)).not.toContain(budiNik);
  });

  it("reads registry rows only through the account's link: a namesake unlinked at the same house gets none", async () => {
    const { a, unitId, budiNik } = await household();
    // Another account named Budi Santoso, with the number on the card, at the very same house, not linked.
    const wa = `62812${digits(8)}`;
    const unlinked = await a.member("warga", { unitId, whatsapp: wa });
    await platform.prepare("UPDATE users SET name = 'Budi Santoso' WHERE id = ?").bind(unlinked.id).run();
    const { body } = await exportOf(unlinked.token);
    const inA = community(body, a.slug);
    for (const table of ["family_cards", "family_members", "mutations"]) {
      expect(inA.tables[table], table).toBeUndefined();
    }
    expect(JSON.stringify(body)).not.toContain(budiNik);
    expect(body.memberships[0]?.personId).toBeNull();
  });

  it("holds no secret anywhere: no hash, token, key or password field or value", async () => {
    const { person } = await household();
    const { body } = await exportOf(person.token);
    const secrets = [
      bindings.JWT_SECRET,
      bindings.PASSWORD_PEPPER,
      bindings.INTERNAL_API_KEY,
      person.token,
      ...(
        await platform
          .prepare(
            "SELECT password_hash AS v FROM users WHERE id = ?1 UNION ALL SELECT refresh_hash FROM sessions WHERE user_id = ?1 UNION ALL SELECT token_hash FROM one_time_tokens WHERE user_id = ?1 UNION ALL SELECT reply_token_hash FROM support_tickets WHERE submitter_user_id = ?1",
          )
          .bind(person.id)
          .all<{ v: string }>()
      ).results.map((r) => r.v),
    ];
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    const problems: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (Array.isArray(value)) {
        for (const [i, v] of value.entries()) {
          walk(v, `${path}[${i}]`);
        }
      } else if (value && typeof value === "object") {
        for (const [key, v] of Object.entries(value)) {
          // A flag (`hasPassword`) carries no secret; any text under such a name might.
          if (
            typeof v !== "boolean" &&
            /hash|secret|password|pepper|token|refresh|write_id|decision_id/i.test(key)
          ) {
            problems.push(`${path}.${key}: a secret's field`);
          }
          walk(v, `${path}.${key}`);
        }
      } else if (typeof value === "string") {
        for (const secret of secrets) {
          if (secret && value.includes(secret)) {
            problems.push(`${path}: holds a secret value`);
          }
        }
        if (/^pbkdf2|^\$argon|^eyJ[\w-]+\.[\w-]+\./.test(value)) {
          problems.push(`${path}: looks like a hash or a token`);
        }
      }
    };
    walk(body, "$");
    expect(problems).toEqual([]);
  });

  it("covers every table a module declares as a person's: a row of theirs in each appears, another's in none", async () => {
    const tenant = await createTenant();
    const person = await tenant.member("warga");
    const other = await tenant.member("warga");
    const db = tenantD1(tenant);
    const owned: { table: string; owner: string; columns: PersonalColumns }[] = [];
    const matched: string[] = [];
    for (const [table, columns] of declarations) {
      const owner = columns.owner === undefined ? columns.subjects?.[0] : columns.owner;
      if (owner) {
        owned.push({ table, owner, columns });
      } else if (columns.ownRows) {
        matched.push(table);
      }
    }
    expect(owned.length).toBeGreaterThan(20);
    // Rows matched without a user id need a household to match; the first test gives each of these one.
    expect(matched.sort()).toEqual(["family_cards", "family_members", "mutations"]);

    for (const { table, owner, columns } of owned) {
      for (const [who, tag] of [
        [person.id, "mine"],
        [other.id, "theirs"],
      ] as const) {
        // Other subject columns get someone else's placeholder id where they are required.
        const values: Record<string, unknown> = { [owner]: who };
        for (const column of columns.personal ?? []) {
          values[column] = `${tag}:${table}.${column}`;
        }
        await insertRow(db, table, values);
      }
    }
    const { status, body } = await exportOf(person.token);
    expect(status).toBe(200);
    const tables = community(body, tenant.slug).tables;
    const missing: string[] = [];
    for (const { table, owner, columns } of owned) {
      const row = tables[table]?.own.find((r) => r[owner] === person.id);
      if (!row) {
        missing.push(`${table}: the person's row is not in the export`);
        continue;
      }
      for (const column of columns.personal ?? []) {
        const expected = (columns.aboutOthers ?? []).includes(column) ? undefined : `mine:${table}.${column}`;
        if (row[column] !== expected) {
          missing.push(`${table}.${column}: ${JSON.stringify(row[column])}`);
        }
      }
    }
    expect(missing).toEqual([]);
    const text = JSON.stringify(body);
    expect(text).not.toContain("theirs:");
    expect(text).not.toContain(other.id);
  });

  it("answers 401 without a valid sign-in, and 429 past five exports an hour", async () => {
    expectProblem(await callJson("/api/user/data-export"), 401, "unauthorized");
    expectProblem(await exportOf("not-a-token"), 401, "invalid_token");
    const tenant = await createTenant();
    const member = await tenant.member("warga");
    for (let i = 0; i < 5; i++) {
      expect((await exportOf(member.token)).status).toBe(200);
    }
    const refused = await exportOf(member.token);
    expectProblem(refused, 429, "rate_limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});
