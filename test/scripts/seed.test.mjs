// The demo seed (`npm run db:seed`, run by `npm run dev`) applied to in-memory SQLite databases migrated
// with the project's own migrations: every module's part must produce SQL the current schema accepts,
// every module's demo rows must land, and a second run must change nothing.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { SEEDED_TENANTS, seedSql } from "../../scripts/seed-dev.mjs";
import { kkNumberProblems, nikProblems } from "../../src/modules/kependudukan/nik.ts";

const ROOT = join(import.meta.dirname, "..", "..");

function migrated(kind) {
  const db = new DatabaseSync(":memory:");
  const dir = join(ROOT, "migrations", kind);
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    db.exec(readFileSync(join(dir, file), "utf8"));
  }
  db.exec("PRAGMA foreign_keys = ON");
  return db;
}

const count = (db, table) => db.prepare(`SELECT count(*) AS n FROM ${table}`).get().n;

function tableCounts(db) {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .all()
    .map((r) => r.name);
  return Object.fromEntries(tables.map((t) => [t, count(db, t)]));
}

describe("demo seed", () => {
  it("applies to freshly migrated databases, fills every module's demo data, and is idempotent", async () => {
    const now = "2026-11-24T02:00:00.000Z";
    const sql = await seedSql({ slots: 8, now });
    const platform = migrated("platform");
    platform.exec(sql.platform);
    const tenants = platform.prepare(SEEDED_TENANTS).all();
    expect(tenants.map((t) => t.slug).sort()).toEqual(["rt-01-sukamaju", "rt-02-sukamaju", "rw-05-sukamaju"]);

    // RT 01's admin has one invitation pending (issue 44): the list at GET /api/members/invitations.
    expect(
      platform
        .prepare(
          `SELECT purpose, tenant_id, invited_by IS NOT NULL AS sent_by FROM one_time_tokens
           WHERE used_at IS NULL AND expires_at > ? AND purpose IN ('invitation', 'join')`,
        )
        .all(now)
        .map((r) => ({ ...r })),
    ).toEqual([{ purpose: "invitation", tenant_id: "seed-tenant-rt01", sent_by: 1 }]);
    const databases = new Map(tenants.map((t) => [t.id, migrated("tenant")]));
    for (const t of tenants) {
      databases.get(t.id).exec(sql.tenant(t));
    }
    const rt01 = databases.get("seed-tenant-rt01");
    // One table per module that has a seed part: demo data shows at once in `npm run dev`.
    for (const table of [
      "units",
      "family_cards",
      "family_members",
      "vehicles",
      "dues_bills",
      "cash_entries",
      "berita",
      "pengumuman",
      "agenda",
      "gallery_albums",
      "pasar_listings",
      "asisten_info",
      "visitors",
      "complaints",
      "complaint_messages",
      "suggestions",
      "proposals",
      "letters",
      "letter_events",
    ]) {
      expect(count(rt01, table), table).toBeGreaterThan(0);
    }
    // Issue 49: RT 01 has one car registered twice under two spellings, flagged for the secretary's
    // duplicate-plate report by the database's trigger (migration 0034), neither dropped.
    expect(
      rt01
        .prepare(
          "SELECT id, plate, plate_key, plate_duplicate FROM vehicles WHERE plate_key = 'D1000SKJ' ORDER BY id",
        )
        .all()
        .map((r) => ({ ...r })),
    ).toEqual([
      { id: "seed-veh-rt01-1", plate: "D 1000 SKJ", plate_key: "D1000SKJ", plate_duplicate: 0 },
      { id: "seed-veh-rt01-2-ganda", plate: "D1000SKJ", plate_key: "D1000SKJ", plate_duplicate: 1 },
    ]);
    expect(count(rt01, "vehicles WHERE plate_duplicate = 1")).toBe(1);
    // Guest book, complaints and letters: the same demo in each RT, in several states, hosted by residents.
    for (const id of ["seed-tenant-rt01", "seed-tenant-rt02"]) {
      const db = databases.get(id);
      const states = (sql) =>
        db
          .prepare(sql)
          .all()
          .map((r) => Object.values(r).join(" "));
      expect(
        states(
          `SELECT v.status, v.checked_in_at IS NOT NULL, v.checked_out_at IS NOT NULL, v.pass_valid_from IS NOT NULL
           FROM visitors v JOIN units u ON u.id = v.unit_id
           WHERE v.registered_by IS NULL AND v.stay_until IS NULL ORDER BY v.id`,
        ),
        id,
      ).toEqual([
        "disetujui 0 0 1",
        "ditolak 0 0 0",
        "disetujui 0 0 1",
        "disetujui 0 0 1",
        "disetujui 1 1 1",
        "disetujui 1 1 1",
        "menunggu 0 0 0",
        "disetujui 1 1 1",
      ]);
      // Every demo resident has a guest expected today (the gate's list, the pass) and one who has been.
      expect(
        states(
          `SELECT sum(status = 'disetujui' AND checked_in_at IS NULL), sum(checked_out_at IS NOT NULL)
           FROM visitors WHERE registered_by IS NULL AND stay_until IS NULL
           GROUP BY resident_id ORDER BY resident_id`,
        ),
        id,
      ).toEqual(["1 1", "1 1", "1 1"]);
      expect(states("SELECT status, revision FROM complaints ORDER BY id"), id).toEqual([
        "selesai 3",
        "baru 1",
        "diproses 2",
      ]);
      expect(
        states(
          `SELECT c.status, count(m.id), sum(m.by_staff) FROM complaints c
           JOIN complaint_messages m ON m.complaint_id = c.id GROUP BY c.id ORDER BY c.id`,
        ),
        id,
      ).toEqual(["selesai 3 2", "baru 1 0", "diproses 2 1"]);
      expect(
        states(`SELECT p.endorsements, count(e.user_id) FROM proposals p
                JOIN proposal_endorsements e ON e.proposal_id = p.id GROUP BY p.id`),
      ).toEqual(["2 2"]);
      expect(count(db, "suggestions"), id).toBe(2);
      expect(
        states(
          `SELECT l.jenis, l.status, count(e.id) FROM letters l JOIN units u ON u.id = l.unit_id
           JOIN letter_events e ON e.letter_id = l.id WHERE l.nomor_surat IS NULL GROUP BY l.id ORDER BY l.id`,
        ),
        id,
        // warga3's letter sent back for correction, beside warga1's and warga2's in progress.
      ).toEqual(["domisili diajukan 1", "kehilangan perlu_perbaikan 2", "pengantar_skck diproses 2"]);
    }
    // Issue 44: one request for a house waits for the RT 01 secretary (a house not in the registry yet).
    expect(
      rt01.prepare("SELECT user_id, status, value FROM corrections WHERE field = 'rumah'").all(),
    ).toEqual([
      { user_id: "seed-user-warga2-rt01", status: "diajukan", value: '{"block":"D","number":"12"}' },
    ]);
    expect(rt01.prepare("SELECT count(*) AS n FROM units WHERE block = 'D' AND number = '12'").get().n).toBe(
      0,
    );
    // Issue 45 in RT 01: a walk-in waiting for its host, a stay on a multi-entry pass inside now, a
    // regular visitor's card.
    expect(
      rt01
        .prepare(
          `SELECT status, category, registered_by IS NOT NULL AS walkIn, multi_entry AS multi,
                  checked_in_at IS NOT NULL AND checked_out_at IS NULL AS inside
           FROM visitors WHERE registered_by IS NOT NULL OR stay_until IS NOT NULL ORDER BY id`,
        )
        .all(),
    ).toEqual([
      { status: "menunggu", category: "ojol", walkIn: 1, multi: 0, inside: 0 },
      { status: "disetujui", category: null, walkIn: 0, multi: 1, inside: 1 },
    ]);
    expect(rt01.prepare("SELECT days, from_time, until_time FROM regular_visitors").all()).toEqual([
      { days: "1,2,3,4,5,6", from_time: "07:00", until_time: "17:00" },
    ]);
    // Each approved pass window covers its visit (an hour before it, to the end of that Jakarta day).
    for (const v of rt01.prepare("SELECT * FROM visitors WHERE status = 'disetujui'").all()) {
      expect(Date.parse(v.visit_at) - Date.parse(v.pass_valid_from)).toBe(3_600_000);
      expect(v.pass_valid_until > v.visit_at).toBe(true);
    }
    // The reversed dues payment: its bill unpaid, and its cash entry undone by the linked opposite.
    const reversed = rt01
      .prepare(
        `SELECT b.status, b.paid_amount AS paid, p.reversal_reason AS reason, k.kind, k.amount, k.source
         FROM dues_payments p JOIN dues_bills b ON b.id = p.bill_id
         JOIN cash_entries k ON k.id = p.reversal_entry_id AND k.reverses_id = p.cash_entry_id
         WHERE p.reversed_at IS NOT NULL`,
      )
      .all();
    expect(reversed).toEqual([
      {
        status: "belum",
        paid: 0,
        reason: "Transfer dibatalkan bank",
        kind: "keluar",
        amount: 50_000,
        source: "koreksi",
      },
    ]);
    // The voided invoice.
    expect(
      platform
        .prepare("SELECT tenant_id AS tenant, status FROM billing_invoices WHERE voided_at IS NOT NULL")
        .all(),
    ).toEqual([{ tenant: "seed-tenant-rt02", status: "void" }]);
    // The demo accounts, RT 01's invited secretary who has not set a password yet, RT 02's guard who
    // has no email and signs in with a WhatsApp code, and RT 01's moved-out head (members.mjs, issue 45).
    expect(platform.prepare("SELECT count(*) AS n FROM users").get().n).toBe(sql.accounts + 3);
    // The moved-out head: his membership ended with a grace period, linked to his person on the card
    // that left, whose September dues are its debt.
    const moved = platform
      .prepare(
        "SELECT roles, unit_id AS unit, person_id AS person, grace_until AS grace FROM memberships WHERE id = 'seed-member-pindah-rt01'",
      )
      .get();
    expect(moved).toMatchObject({ roles: "[]", unit: null });
    expect(Date.parse(moved.grace)).toBeGreaterThan(Date.now());
    const left = databases
      .get("seed-tenant-rt01")
      .prepare(
        `SELECT c.status, (SELECT count(*) FROM dues_bills b WHERE b.moved_out_family_id = c.id AND b.status = 'belum') AS owed
         FROM family_members p JOIN family_cards c ON c.id = p.family_card_id WHERE p.id = ?`,
      )
      .get(moved.person);
    expect(left.status).toBe("pindah");
    expect(left.owed).toBeGreaterThan(0);
    expect(
      platform
        .prepare(
          `SELECT u.email, u.whatsapp_verified_at IS NOT NULL AS proven, m.tenant_id AS tenant, m.roles
           FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = 'seed-user-satpam-rt02'`,
        )
        .get(),
    ).toEqual({ email: null, proven: 1, tenant: "seed-tenant-rt02", roles: '["satpam"]' });
    expect(platform.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    for (const db of databases.values()) {
      expect(db.prepare("PRAGMA foreign_key_check").all()).toEqual([]);
    }

    // Officers live in their RT (issue 27): a house, a family card, and their account linked to their own
    // person on it, as every resident's is; the guard has no house; the RW head has none in the RW.
    const members = platform
      .prepare(
        `SELECT u.email, m.tenant_id AS tenant, m.roles, m.unit_id AS unit, m.person_id AS person
         FROM memberships m JOIN users u ON u.id = m.user_id ORDER BY u.email`,
      )
      .all();
    const of = (email) => members.find((m) => m.email === email);
    expect(of("satpam.rt01@warga.test")).toEqual({
      email: "satpam.rt01@warga.test",
      tenant: "seed-tenant-rt01",
      roles: '["satpam"]',
      unit: null,
      person: null,
    });
    expect(of("admin.rw05@warga.test")).toMatchObject({ roles: '["admin"]', unit: null, person: null });
    // Not the guards (RT 02's has no email), nor RT 01's invited secretary (members.mjs), who has not
    // accepted yet, nor its moved-out head (members.mjs), whose card is no longer active.
    const linked = members.filter(
      (m) =>
        m.tenant !== "seed-tenant-rw05" &&
        m.email !== null &&
        !m.email.startsWith("satpam.") &&
        !m.email.startsWith("calon.") &&
        !m.email.startsWith("pindah."),
    );
    expect(linked.map((m) => m.email)).toEqual(
      ["admin", "bendahara", "sekretaris", "warga1", "warga2", "warga3"].flatMap((who) =>
        ["rt01", "rt02"].map((rt) => `${who}.${rt}@warga.test`),
      ),
    );
    for (const m of linked) {
      const person = databases
        .get(m.tenant)
        .prepare(
          `SELECT p.name, c.unit_id AS unit, c.status FROM family_members p
           JOIN family_cards c ON c.id = p.family_card_id WHERE p.id = ?`,
        )
        .get(m.person);
      const name = platform.prepare("SELECT name FROM users WHERE email = ?").get(m.email).name;
      expect(person, m.email).toEqual({ name, unit: m.unit, status: "aktif" });
    }
    expect(new Set(linked.map((m) => m.person)).size).toBe(linked.length);
    // The sekretaris of RT 01 is the wife on her husband's card; the others head their own.
    const relationship = (tenant, person) =>
      databases.get(tenant).prepare("SELECT relationship FROM family_members WHERE id = ?").get(person)
        .relationship;
    expect(relationship("seed-tenant-rt01", of("sekretaris.rt01@warga.test").person)).toBe("istri");
    expect(relationship("seed-tenant-rt01", of("admin.rt01@warga.test").person)).toBe("kepala_keluarga");
    // Every demo NIK passes the registry's own check, agreeing with the person's sex and birth date.
    for (const db of databases.values()) {
      for (const p of db.prepare("SELECT nik, sex, birth_date FROM family_members").all()) {
        expect(nikProblems(p.nik, { sex: p.sex, birthDate: p.birth_date }), p.nik).toEqual([]);
      }
      for (const c of db.prepare("SELECT kk_number FROM family_cards").all()) {
        expect(kkNumberProblems(c.kk_number)).toEqual([]);
      }
    }

    // Seeding runs on every `npm run dev`: the second run (a new instant) adds nothing.
    const before = [tableCounts(platform), ...[...databases.values()].map(tableCounts)];
    const again = await seedSql({ slots: 8, now: "2026-11-25T02:00:00.000Z" });
    platform.exec(again.platform);
    for (const t of platform.prepare(SEEDED_TENANTS).all()) {
      databases.get(t.id).exec(again.tenant(t));
    }
    expect([tableCounts(platform), ...[...databases.values()].map(tableCounts)]).toEqual(before);

    // A database seeded before officers had houses gets their house and person on the next run.
    platform.exec(
      "UPDATE memberships SET unit_id = NULL, person_id = NULL WHERE id = 'seed-member-admin-rt01'",
    );
    platform.exec(again.platform);
    expect(
      platform
        .prepare("SELECT unit_id, person_id FROM memberships WHERE id = 'seed-member-admin-rt01'")
        .get(),
    ).toEqual({ unit_id: of("admin.rt01@warga.test").unit, person_id: of("admin.rt01@warga.test").person });
  });
});
