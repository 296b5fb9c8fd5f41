// Every local D1 database of the project's Workers in one workerd, persisted exactly where `wrangler dev
// --persist-to` and `wrangler d1 … --local --persist-to` keep them: `npm run dev`'s set-up migrates and
// seeds through these bindings in one process (issue 49), where one wrangler CLI call per database and
// statement file took minutes on a fresh clone.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { migratedDatabases } from "./wrangler.mjs";

/**
 * A Worker that holds the bindings and runs what it is sent inside workerd: a batch of statements (all or
 * nothing) or one query. Through Miniflare's binding proxy every `prepare` was a round trip from Node,
 * thousands per fresh database (minutes on a busy machine); here a database's migrations are one request.
 */
const HOLDER = `export default {
  async fetch(request, env) {
    const { binding, statements, query } = await request.json();
    const db = env[binding];
    const prepared = ([sql, params]) => db.prepare(sql).bind(...params);
    try {
      if (query) {
        const result = await prepared(query).all();
        return Response.json({ results: result.results, meta: result.meta });
      }
      await db.batch(statements.map(prepared));
      return Response.json({ ok: true });
    } catch (error) {
      return Response.json({ error: String(error && error.message ? error.message : error) }, { status: 500 });
    }
  },
};`;

/**
 * What scripts/lib/d1-apply.mjs needs of a D1 binding (prepare, bind, run, all, first, batch), each call
 * one request to the holder Worker.
 */
function remoteDatabase(mf, worker, binding) {
  const send = async (body) => {
    const res = await mf.dispatchFetch(`http://${worker}.local/`, {
      method: "POST",
      headers: { "content-type": "application/json", "MF-Route-Override": worker },
      body: JSON.stringify({ binding, ...body }),
    });
    const answer = await res.json();
    if (!res.ok) {
      throw new Error(`${binding}: ${answer.error}`);
    }
    return answer;
  };
  const statement = (sql, params = []) => ({
    sql,
    params,
    bind: (...values) => statement(sql, values),
    all: () => send({ query: [sql, params] }),
    run: () => send({ query: [sql, params] }),
    first: async () => (await send({ query: [sql, params] })).results[0] ?? null,
  });
  return {
    prepare: (sql) => statement(sql),
    batch: (list) => send({ statements: list.map((s) => [s.sql, s.params]) }),
  };
}

/**
 * Opens the databases of `configs` (wrangler.toml paths) under `persistTo`. Answers each database with
 * its config, binding, name and migrations folder (relative to the project), and `dispose()`.
 * The databases are found by their ids as wrangler's own local commands find them, so what this writes
 * is what `wrangler dev` then reads (and `wrangler d1 migrations list --local` agrees: same ledger).
 */
export async function openLocalD1(configs, persistTo) {
  const persistRoot = join(persistTo, "v3");
  mkdirSync(persistRoot, { recursive: true });
  // The bindings straight from each config (no preview ids are declared, so local state is keyed by
  // `database_id`, as wrangler keys it). Not through wrangler's own option builder: importing wrangler's
  // module alone took a minute on a busy machine.
  const workers = configs.map((config, i) => ({
    name: `d1-holder-${i}`,
    modules: true,
    script: HOLDER,
    compatibilityDate: "2025-01-01",
    d1Databases: Object.fromEntries(migratedDatabases(config).map((d) => [d.binding, { id: d.database_id }])),
  }));
  const mf = new Miniflare(convertV4MiniflareOptions({ resourcePersistencePath: persistRoot, workers }));
  await mf.ready;
  const databases = configs.flatMap((config, i) =>
    migratedDatabases(config).map((d) => ({
      config,
      worker: `d1-holder-${i}`,
      binding: d.binding,
      name: d.database_name,
      migrations: join(
        config.includes("/") ? config.slice(0, config.lastIndexOf("/")) : "",
        d.migrations_dir,
      ),
    })),
  );
  return {
    persistTo,
    databases,
    binding: async (db) => remoteDatabase(mf, db.worker, db.binding),
    dispose: () => mf.dispose(),
  };
}
