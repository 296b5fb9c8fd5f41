// Seeds the local demo data, idempotently: running it twice changes nothing the second time.
// Tenants: RW rw-05-sukamaju with RTs rt-01-sukamaju and rt-02-sukamaju linked to it.
// Accounts (password warga-demo-2026) are listed in the README.
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { runAll, splitSql } from "./lib/d1-apply.mjs";
import { openLocalD1 } from "./lib/local-d1.mjs";
import { STATE_DIR } from "./lib/wrangler.mjs";

export const DEMO_PASSWORD = "warga-demo-2026";
const ITERATIONS = 100_000;
const b64url = (buf) => buf.toString("base64url");
const q = (v) => (v === null || v === undefined ? "NULL" : `'${String(v).replace(/'/g, "''")}'`);

function hashPassword(password) {
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(password, salt, ITERATIONS, 32, "sha256");
  return `pbkdf2-sha256$${ITERATIONS}$${b64url(salt)}$${b64url(hash)}`;
}

const TENANTS = [
  { id: "seed-tenant-rw05", slug: "rw-05-sukamaju", name: "RW 05 Sukamaju", type: "RW", parent: null },
  {
    id: "seed-tenant-rt01",
    slug: "rt-01-sukamaju",
    name: "RT 01 / RW 05 Sukamaju",
    type: "RT",
    parent: "seed-tenant-rw05",
  },
  {
    id: "seed-tenant-rt02",
    slug: "rt-02-sukamaju",
    name: "RT 02 / RW 05 Sukamaju",
    type: "RT",
    parent: "seed-tenant-rw05",
  },
];

/**
 * The officers of each demo RT live there: each has a house and a family card, and their account is
 * linked to their own person on it (the head, or the wife when she holds the duty). `spouse` is the
 * head's wife; the card also gets a child (scripts/seed/kependudukan.mjs).
 */
const OFFICERS = {
  rt01: [
    { duty: "admin", name: "Bambang Sutrisno", spouse: "Sri Wahyuni", number: "16" },
    // The secretary is the wife on her husband's card.
    { duty: "sekretaris", name: "Ratna Permatasari", head: "Arif Hidayat", number: "17" },
    { duty: "bendahara", name: "Dedi Kurniadi", spouse: "Yuliani Kurniadi", number: "18" },
  ],
  rt02: [
    { duty: "admin", name: "Sugeng Riyanto", spouse: "Endang Susilowati", number: "16" },
    { duty: "sekretaris", name: "Fajar Ramadhan", spouse: "Nia Kurniasih", number: "17" },
    { duty: "bendahara", name: "Lilis Suryani", head: "Asep Saepudin", number: "18" },
  ],
};

/**
 * Every demo account. `roles` are the membership's duties (none for a plain resident); an account with a
 * `unit` lives in the RT, and `home` says how its family card is drawn: the head (`head`, his sex), the
 * wife (`spouse`, none for a widow), and which of them the account is (`self`), whose person id is
 * `personId` (`seed-km-<rt>-<key>-1` for the head, `-2` for the wife).
 */
function demoAccounts() {
  const accounts = [
    {
      id: "seed-user-operator",
      email: "operator@warga.test",
      name: "Operator Warga",
      platformRole: "super_admin",
      roles: [],
    },
    {
      // The RW head runs the RW and lives in one of its RTs, not in the RW tenant: no house here.
      id: "seed-user-admin-rw05",
      email: "admin.rw05@warga.test",
      name: "Pak Hendra (Ketua RW 05)",
      tenant: "seed-tenant-rw05",
      roles: ["admin"],
    },
  ];
  const residents = [
    ["Budi Santoso", "6281234560001", "L"],
    // A widow who heads her own family card.
    ["Siti Aminah", "6281234560002", "P"],
    ["Agus Wijaya", "6281234560003", "L"],
  ];
  for (const [rt, block] of [
    ["rt01", "A"],
    ["rt02", "B"],
  ]) {
    const tenant = `seed-tenant-${rt}`;
    // Residents first: their houses keep the first card ids and dues bills of every earlier seed.
    residents.forEach(([name, wa, sex], n) => {
      const key = String(n + 1);
      accounts.push({
        id: `seed-user-warga${n + 1}-${rt}`,
        email: `warga${n + 1}.${rt}@warga.test`,
        name,
        whatsapp: `${wa.slice(0, -1)}${rt === "rt01" ? n + 1 : n + 4}`,
        tenant,
        roles: [],
        unit: { id: `seed-unit-${rt}-${block.toLowerCase()}${n + 1}`, block, number: String(n + 1) },
        home: { key, head: name, sex, spouse: sex === "P" ? null : undefined, self: "head" },
        personId: `seed-km-${rt}-${key}-1`,
      });
    });
    OFFICERS[rt].forEach((o, n) => {
      const self = o.head ? "spouse" : "head";
      accounts.push({
        id: `seed-user-${o.duty}-${rt}`,
        email: `${o.duty}.${rt}@warga.test`,
        name: o.name,
        whatsapp: `62812345${rt === "rt01" ? "61" : "62"}${String(n + 1).padStart(3, "0")}`,
        tenant,
        roles: [o.duty],
        unit: { id: `seed-unit-${rt}-${o.duty}`, block, number: o.number },
        home: {
          key: o.duty,
          head: o.head ?? o.name,
          sex: "L",
          spouse: o.head ? o.name : o.spouse,
          self,
        },
        personId: `seed-km-${rt}-${o.duty}-${self === "head" ? 1 : 2}`,
      });
    });
  }
  // RT 01's gate guard: hired, not a resident (no house, no family card here).
  accounts.push({
    id: "seed-user-satpam-rt01",
    email: "satpam.rt01@warga.test",
    name: "Ujang Suherman",
    whatsapp: "6281234569001",
    tenant: "seed-tenant-rt01",
    roles: ["satpam"],
  });
  return accounts;
}

function platformSql(accounts, slots, now) {
  const flags = JSON.stringify({ pasar: true, tamu: true, musyawarah: true, surat: true, warga: true });
  const lines = [];
  for (const t of TENANTS) {
    // Same claim as the operator route: the lowest slot no tenant holds, only if the slug is new.
    lines.push(`INSERT INTO tenants (id, slug, name, type, parent_id, flags, slot, status, updated_at)
SELECT ${q(t.id)}, ${q(t.slug)}, ${q(t.name)}, ${q(t.type)}, ${q(t.parent)}, ${q(flags)}, free.n, 'active', ${q(now)}
FROM (WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${slots})
      SELECT n FROM seq WHERE n NOT IN (SELECT slot FROM tenants) ORDER BY n LIMIT 1) AS free
WHERE NOT EXISTS (SELECT 1 FROM tenants WHERE slug = ${q(t.slug)});`);
  }
  for (const a of accounts) {
    lines.push(`INSERT OR IGNORE INTO users (id, email, name, whatsapp, password_hash, platform_role, status, updated_at)
VALUES (${q(a.id)}, ${q(a.email)}, ${q(a.name)}, ${q(a.whatsapp)}, ${q(hashPassword(DEMO_PASSWORD))}, ${q(a.platformRole)}, 'active', ${q(now)});`);
    // Demo accounts' contacts count as proven (issue 44), so signing in by number and inviting them work;
    // a number changed on the profile afterwards is unproven again, as for anyone.
    lines.push(`UPDATE users SET email_verified_at = COALESCE(email_verified_at, ${q(now)}), whatsapp_verified_at = COALESCE(whatsapp_verified_at, ${q(now)})
WHERE id = ${q(a.id)} AND email IS ${q(a.email)} AND whatsapp IS ${q(a.whatsapp)};`);
    if (a.tenant) {
      const member = `seed-member-${a.id.slice(10)}`;
      lines.push(`INSERT OR IGNORE INTO memberships (id, user_id, tenant_id, roles, unit_id, person_id)
SELECT ${q(member)}, u.id, t.id, ${q(JSON.stringify(a.roles))}, ${q(a.unit?.id)}, ${q(a.personId)}
FROM users u, tenants t WHERE u.email = ${q(a.email)} AND t.slug = ${q(TENANTS.find((x) => x.id === a.tenant).slug)};`);
      if (a.personId) {
        // A database seeded before officers had houses: give the existing membership its house and person
        // (once, and never a person some other account holds by now).
        lines.push(`UPDATE memberships SET unit_id = COALESCE(unit_id, ${q(a.unit.id)}), person_id = ${q(a.personId)}
WHERE id = ${q(member)} AND person_id IS NULL
  AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.tenant_id = memberships.tenant_id AND m.person_id = ${q(a.personId)});`);
      }
    }
  }
  return lines.join("\n");
}

function tenantSql(accounts, tenantId, now) {
  return accounts
    .filter((a) => a.tenant === tenantId && a.unit)
    .map(
      (a) => `INSERT OR IGNORE INTO units (id, block, number, updated_at)
VALUES (${q(a.unit.id)}, ${q(a.unit.block)}, ${q(a.unit.number)}, ${q(now)});`,
    )
    .join("\n");
}

/**
 * Each module's demo data lives in scripts/seed/<module>.mjs, which may export
 * `platformSql({ accounts, tenants, now, q })` and `tenantSql({ accounts, tenant, rt, resident, now, q })`
 * (tenant: `{ id, slug, slot }`; rt: `rt01`, `rt02` or null for the RW; resident(n): that RT's account
 * warga<n>), each returning idempotent SQL (INSERT OR IGNORE, fixed ids). They run in file
 * name order after the core rows above, so a part may refer to the accounts, units and tenants.
 */
async function seedParts() {
  const dir = join(dirname(fileURLToPath(import.meta.url)), "seed");
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".mjs"))
    .sort();
  return Promise.all(files.map((f) => import(join(dir, f))));
}

/** Which demo RT a tenant is (`rt01`, `rt02`; null for the RW): the suffix of the RT's seeded ids. */
function demoRt(slug) {
  return slug.startsWith("rt-01") ? "rt01" : slug.startsWith("rt-02") ? "rt02" : null;
}

/** A demo tenant's RT and its residents' accounts (`resident(1)` is warga1 of that RT), for the parts. */
function demoPeople(accounts, slug) {
  const rt = demoRt(slug);
  return { rt, resident: (n) => accounts.find((a) => a.id === `seed-user-warga${n}-${rt}`) };
}

/**
 * The seed as SQL: the platform database's text, then each demo tenant's (given the tenant row the platform
 * text created, `{ id, slug, slot }`). Pure apart from the password hashing, so a test can apply it to
 * migrated in-memory databases (test/scripts/seed.test.mjs).
 */
export async function seedSql({ slots, now = new Date().toISOString() }) {
  const accounts = demoAccounts();
  const parts = await seedParts();
  const platformParts = parts.map((p) => p.platformSql?.({ accounts, tenants: TENANTS, now, q }) ?? "");
  return {
    platform: [platformSql(accounts, slots, now), ...platformParts].join("\n"),
    tenant: (row) =>
      [
        tenantSql(accounts, row.id, now),
        ...parts.map(
          (p) => p.tenantSql?.({ accounts, tenant: row, ...demoPeople(accounts, row.slug), now, q }) ?? "",
        ),
      ]
        .filter(Boolean)
        .join("\n"),
    accounts: accounts.length,
  };
}

/**
 * Local only: demo accounts with a published password must never reach a deployed database. Through
 * Miniflare's bindings on the local state, in one process (`local`: databases the caller already opened,
 * as `npm run dev` does for migrations and seed together).
 */
export async function seed({ slots, local }) {
  const sql = await seedSql({ slots });
  const opened = local ?? (await openLocalD1(["wrangler.toml"], STATE_DIR));
  try {
    const database = (binding) => opened.binding(opened.databases.find((d) => d.binding === binding));
    const platform = await database("PLATFORM_DB");
    await runAll(platform, splitSql(sql.platform));
    const rows = (await platform.prepare(SEEDED_TENANTS).all()).results;
    for (const row of rows) {
      const text = sql.tenant(row);
      if (text) {
        await runAll(await database(`TENANT_DB_${String(row.slot).padStart(2, "0")}`), splitSql(text));
      }
    }
    return { tenants: rows, accounts: sql.accounts };
  } finally {
    if (!local) {
      await opened.dispose();
    }
  }
}

/** The demo tenants as the platform database holds them after seeding (their slots are claimed there). */
export const SEEDED_TENANTS = "SELECT id, slug, slot FROM tenants WHERE id LIKE 'seed-tenant-%'";

if (import.meta.url === `file://${process.argv[1]}`) {
  const { slotCountFromConfig } = await import("./tenant-slots.mjs");
  const result = await seed({ slots: slotCountFromConfig() });
  console.log(
    `seeded ${result.accounts} demo accounts; tenants: ${result.tenants.map((t) => `${t.slug}→slot ${t.slot}`).join(", ")}`,
  );
}
