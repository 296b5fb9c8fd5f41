import type { WriteAttachment } from "../../core/db/handles";

/**
 * The idempotency mark (ADR 0034): while a request holds an `Idempotency-Key`, its first write to a
 * database, whether a drizzle batch, one drizzle statement or a raw statement, carries one more
 * statement that marks the key `committed` in that same database. D1 runs a batch as one transaction,
 * so the mark exists exactly when the change does: a batch that fails leaves neither, and a replay
 * cannot disagree with what was written. The mark is a `WriteAttachment` (core/db/handles.ts) the
 * middleware adds to the request's `DbScope` around the handler; every handle of a context built for
 * the request carries it (core/tenancy/contexts.ts, ADR 0048).
 */
export interface Reservation {
  scope: string;
  key: string;
  actorId: string;
  requestHash: string;
  owner: string;
  /** The database holding the reservation row; a write elsewhere inserts a marker row there. */
  home: D1Database;
  lockedUntil: string;
  createdAt: string;
  /** Set once a write carrying the mark has succeeded. */
  committed: boolean;
}

/**
 * The first write of the request, a batch or a single statement, carries the key's mark. A batch is
 * one the handle was asked to run as a write (core/db/handles.ts): a drizzle insert, update or delete,
 * a raw statement's `run`, or any statement of a `batch` that drizzle did not build as a read.
 */
export function reservationAttachment(r: Reservation): WriteAttachment {
  return {
    attach: ({ raw, database }, statements) =>
      !r.committed && statements.some((s) => s.write)
        ? { before: [], after: [markStatement(raw, database, r)] }
        : null,
    committed: () => {
      r.committed = true;
    },
  };
}

function markStatement(raw: D1Database, database: D1Database, r: Reservation): D1PreparedStatement {
  if (database === r.home) {
    return raw
      .prepare(
        "UPDATE idempotency_keys SET state = 'committed' WHERE scope = ?1 AND key = ?2 AND owner = ?3 AND state = 'pending'",
      )
      .bind(r.scope, r.key, r.owner);
  }
  return raw
    .prepare(
      "INSERT INTO idempotency_keys (scope, key, actor_id, request_hash, state, owner, locked_until, created_at) " +
        "VALUES (?1, ?2, ?3, ?4, 'committed', ?5, ?6, ?7) ON CONFLICT (scope, key) DO UPDATE SET " +
        "state = 'committed', owner = excluded.owner, request_hash = excluded.request_hash, created_at = excluded.created_at",
    )
    .bind(r.scope, r.key, r.actorId, r.requestHash, r.owner, r.lockedUntil, r.createdAt);
}
