/**
 * A drizzle query built and prepared once per database instance, then run with placeholders bound
 * (`sql.placeholder("userId")`). Building a query is most of a small read's own CPU (drizzle walks its
 * columns and chunks on every build: `node scripts/profile-route.mjs path`), and the platform
 * database is one drizzle instance per isolate (core/db/platform.ts), so its hot reads are built once.
 * A tenant request's database is a new instance each time (its D1 session), where this saves nothing:
 * `rowById` (core/db/rows.ts) is the one read shared across those.
 *
 * `site` names the query: a module-level symbol of the caller's, one per query.
 */
const cache = new WeakMap<object, Map<symbol, unknown>>();

export function preparedOnce<Db extends object, Q>(db: Db, site: symbol, build: (db: Db) => Q): Q {
  let queries = cache.get(db);
  if (!queries) {
    queries = new Map();
    cache.set(db, queries);
  }
  let query = queries.get(site) as Q | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(site, query);
  }
  return query;
}
