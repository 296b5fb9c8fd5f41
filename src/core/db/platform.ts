import { drizzle } from "drizzle-orm/d1";
import type { Bindings, PlatformDb } from "../env";
import { type DbScope, d1Handle, withStatementFacts } from "./handles";
import * as identitySchema from "./identity-schema";
import * as platformSchema from "./platform-schema";

/** Every table of the platform database: core's and identity's (identity-schema.ts, ADR 0050). */
const schema = { ...platformSchema, ...identitySchema };

/**
 * One drizzle instance per D1 binding and isolate: building one walks the whole schema, and a request
 * asks for the platform database several times (guard, context, verbs). A new binding object (another
 * isolate's, or a test's stand-in) gets its own instance. It carries no request's scope: a request
 * whose writes carry something (an Idempotency-Key, an If-Match) gets its own, `scopedPlatformDb`.
 */
const instances = new WeakMap<D1Database, PlatformDb>();

export function platformDb(env: Bindings): PlatformDb {
  let db = instances.get(env.PLATFORM_DB);
  if (!db) {
    db = withStatementFacts(drizzle(d1Handle(env.PLATFORM_DB, null), { schema }));
    instances.set(env.PLATFORM_DB, db);
  }
  return db;
}

/** The platform database with one request's scope bound in (core/db/handles.ts), built once per scope. */
const scoped = new WeakMap<DbScope, PlatformDb>();

export function scopedPlatformDb(env: Bindings, scope: DbScope): PlatformDb {
  let db = scoped.get(scope);
  if (!db) {
    db = withStatementFacts(drizzle(d1Handle(env.PLATFORM_DB, scope), { schema }));
    scoped.set(scope, db);
  }
  return db;
}
