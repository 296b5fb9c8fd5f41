import { drizzle } from "drizzle-orm/d1";
import type { Bindings, PlatformDb } from "../env";
import { withIdempotencyHook } from "../idempotency/hook";
import * as schema from "./platform-schema";

/**
 * One drizzle instance per D1 binding and isolate: building one walks the whole schema, and a request
 * asks for the platform database several times (guard, context, verbs). A new binding object (another
 * isolate's, or a test's stand-in) gets its own instance.
 */
const instances = new WeakMap<D1Database, PlatformDb>();

export function platformDb(env: Bindings): PlatformDb {
  let db = instances.get(env.PLATFORM_DB);
  if (!db) {
    db = drizzle(withIdempotencyHook(env.PLATFORM_DB), { schema });
    instances.set(env.PLATFORM_DB, db);
  }
  return db;
}
