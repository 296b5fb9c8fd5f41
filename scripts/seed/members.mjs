// A member without email (issue 45): RT 02's night guard Udin signs in with a code sent to his proven
// WhatsApp number (`POST /api/auth/otp/request`), or with a code RT 02's admin hands him. No password.
// Pending invitations demo data (issue 44): RT 01's admin invited a new secretary who has not set a
// password yet, so `GET /api/members/invitations` (and the members list, as `diundang`) shows one.
// Idempotent: fixed ids; each run moves the link's expiry a week ahead while it is still pending, so it
// stays listed across restarts, and a revocation clicked through (`used_at` set) is never undone. The
// stored hash is of a random secret nobody holds: the link itself cannot be used.
// A family that moved out (issue 45): RT 01's head of the family that left on 30 September
// (kependudukan.mjs `movedOutHead`) still has his account, its membership ended with a grace period (no
// duty, no house): he signs in by email link or WhatsApp code and sees on /profil what his family still
// owes (keuangan.mjs: September's dues), to pay in one checkout. Its grace period ends 30 days after it
// was seeded; once the hourly job has deleted it, the next run seeds it afresh (a re-run changes nothing).
import { randomBytes } from "node:crypto";
import { movedOutHead } from "./kependudukan.mjs";

const DAY = 86_400_000;

export function platformSql({ accounts, now, q }) {
  const admin = accounts.find((a) => a.tenant === "seed-tenant-rt01" && a.roles?.includes("admin"));
  const invitee = { name: "Rina Marlina", email: "calon.sekretaris.rt01@warga.test", whatsapp: null };
  const expiresAt = new Date(new Date(now).getTime() + 7 * DAY).toISOString();
  const data = JSON.stringify({ invitee });
  const moved = movedOutHead(accounts);
  const graceUntil = new Date(new Date(now).getTime() + 30 * DAY).toISOString();
  return `INSERT OR IGNORE INTO users (id, email, name, whatsapp, password_hash, status, updated_at, whatsapp_verified_at)
VALUES ('seed-user-satpam-rt02', NULL, 'Udin Saprudin', '6281234569002', NULL, 'active', ${q(now)}, ${q(now)});
INSERT OR IGNORE INTO memberships (id, user_id, tenant_id, roles, unit_id, person_id)
SELECT 'seed-member-satpam-rt02', u.id, 'seed-tenant-rt02', '["satpam"]', NULL, NULL
FROM users u WHERE u.id = 'seed-user-satpam-rt02' AND EXISTS (SELECT 1 FROM tenants WHERE id = 'seed-tenant-rt02');
INSERT OR IGNORE INTO users (id, email, name, whatsapp, password_hash, status, updated_at)
VALUES ('seed-user-invited-rt01', ${q(invitee.email)}, ${q(invitee.name)}, NULL, NULL, 'active', ${q(now)});
INSERT OR IGNORE INTO memberships (id, user_id, tenant_id, roles, unit_id, person_id)
SELECT 'seed-member-invited-rt01', u.id, 'seed-tenant-rt01', '["sekretaris"]', NULL, NULL
FROM users u WHERE u.email = ${q(invitee.email)} AND u.password_hash IS NULL;
INSERT INTO one_time_tokens (id, purpose, token_hash, user_id, data, tenant_id, invited_by, channel, expires_at)
SELECT 'seed-invitation-rt01', 'invitation', ${q(randomBytes(32).toString("hex"))}, u.id, ${q(data)}, 'seed-tenant-rt01', ${q(admin?.id)}, 'email', ${q(expiresAt)}
FROM users u WHERE u.email = ${q(invitee.email)} AND u.password_hash IS NULL
ON CONFLICT(id) DO UPDATE SET expires_at = excluded.expires_at WHERE one_time_tokens.used_at IS NULL;
INSERT OR IGNORE INTO users (id, email, name, whatsapp, password_hash, status, updated_at, whatsapp_verified_at)
VALUES ('seed-user-pindah-rt01', 'pindah.rt01@warga.test', ${q(moved.name)}, '6281234569101', NULL, 'active', ${q(now)}, ${q(now)});
INSERT OR IGNORE INTO memberships (id, user_id, tenant_id, roles, unit_id, person_id, grace_until)
SELECT 'seed-member-pindah-rt01', u.id, 'seed-tenant-rt01', '[]', NULL, ${q(moved.personId)}, ${q(graceUntil)}
FROM users u WHERE u.id = 'seed-user-pindah-rt01' AND EXISTS (SELECT 1 FROM tenants WHERE id = 'seed-tenant-rt01');
`;
}
