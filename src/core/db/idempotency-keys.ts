import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * One `Idempotency-Key` of one caller in one community (ADR 0034). The same table lives in the platform
 * database and in every tenant database, because the mark that the change happened (`state`
 * `committed`) is written in the very batch of the change, and a change lands in one of them.
 *
 * `state`: `pending` (reserved by a request still running, until `lockedUntil`), `committed` (its change
 * is written; the answer not yet kept), `done` (`status`, `headers`, `body` hold the answer to replay).
 */
export function idempotencyTable() {
  return sqliteTable(
    "idempotency_keys",
    {
      /** `<actor kind>:<actor id>@<community slug or ->`: whose key it is, and where. */
      scope: text("scope").notNull(),
      key: text("key").notNull(),
      /** The user or device who sent it (a subject for erasure and data export). */
      actorId: text("actor_id").notNull(),
      /** SHA-256 of method, path and body: the same key with another request is refused. */
      requestHash: text("request_hash").notNull(),
      state: text("state", { enum: ["pending", "committed", "done"] }).notNull(),
      /** The request that holds the key now; only it may mark or release it. */
      owner: text("owner").notNull(),
      lockedUntil: text("locked_until").notNull(),
      status: integer("status"),
      headers: text("headers"),
      body: text("body"),
      createdAt: text("created_at").notNull(),
    },
    (t) => [primaryKey({ columns: [t.scope, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
  );
}

export type IdempotencyTable = ReturnType<typeof idempotencyTable>;
