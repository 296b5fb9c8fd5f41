// Access tokens for the bench scripts, signed as the API signs them (src/core/auth/tokens.ts): the claims
// `{ tenant, roles, resident, sid }`, where `roles` are the member's duties (`["super_admin"]` with a null
// tenant for an operator) and `resident` says whether they live in the community. The guard asks on
// every tenant request whether the sign-in `sid` names is live (src/core/auth/liveness.ts), so each sid a
// bench uses gets a session row first: `liveSessionStatements`.
import { SignJWT } from "jose";
import { readConfig } from "../lib/wrangler.mjs";

const q = (v) => (v === null || v === undefined ? "NULL" : `'${String(v).replace(/'/g, "''")}'`);
/** Rows per INSERT: a session row binds nothing (literals), so this only keeps statements readable. */
const CHUNK = 500;

/**
 * SQL statements that make each `{ sid, userId, tenantId }` a live sign-in: a `sessions` row whose id
 * and family are the sid, with a unique refresh hash that no client holds, expiring in a day. A row
 * from an earlier run is made live again (expiry moved on, never revoked or spent), so a bench state
 * kept between runs still signs in.
 */
export function liveSessionStatements(sessions, now = new Date()) {
  const expiresAt = new Date(now.getTime() + 86_400_000).toISOString();
  const statements = [];
  for (let i = 0; i < sessions.length; i += CHUNK) {
    const values = sessions
      .slice(i, i + CHUNK)
      .map(
        (s) =>
          `(${q(s.sid)}, ${q(s.userId)}, ${q(s.tenantId ?? null)}, ${q(s.sid)}, ${q(`bench-refresh-${s.sid}`)}, ${q(expiresAt)})`,
      );
    statements.push(
      `INSERT INTO sessions (id, user_id, tenant_id, family_id, refresh_hash, expires_at) VALUES ${values.join(", ")}
ON CONFLICT(id) DO UPDATE SET expires_at = excluded.expires_at, revoked_at = NULL, used_at = NULL;`,
    );
  }
  return statements;
}

/**
 * One access token. `tenant` null with `roles: ["super_admin"]` is an operator; otherwise `roles` are
 * duties (none for a plain resident) and `resident` whether the member lives in the tenant.
 */
export function benchToken({ secret, sub, tenant, roles, resident, sid, ttl = "15m" }) {
  const vars = readConfig("wrangler.toml").vars;
  return new SignJWT({ tenant, roles, resident, sid })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(sub)
    .setIssuer(vars.JWT_ISSUER)
    .setAudience(vars.JWT_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(ttl)
    .sign(new TextEncoder().encode(secret));
}
