// Applying SQL to a local D1 database through a binding (a running workerd's, or Miniflare's): the
// migrations wrangler would apply, recorded in the same ledger, and statement text split for a binding.
// Shared by \`npm run dev\`'s set-up (scripts/lib/local-d1.mjs), the benches' servers and the e2e server.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./dev-server.mjs";

/**
 * The migrations wrangler would apply and this database lacks, recorded in the same ledger (as
 * core/db/migrate.ts does), so `wrangler d1 migrations apply` and this agree in both directions.
 */
export async function migrate(db, dir) {
  // A socket the proxy closed (see runAll) is tried again; the ledger says what did apply.
  for (let attempt = 1; ; attempt++) {
    try {
      return await migrateOnce(db, dir);
    } catch (error) {
      if (attempt >= 3 || error?.cause?.code !== "UND_ERR_SOCKET") {
        throw error;
      }
    }
  }
}

async function migrateOnce(db, dir) {
  await db
    .prepare(
      "CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT UNIQUE, applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL)",
    )
    .run();
  const applied = new Set(
    (await db.prepare("SELECT name FROM d1_migrations").all()).results.map((r) => r.name),
  );
  const files = readdirSync(join(root, dir))
    .filter((f) => f.endsWith(".sql") && !applied.has(f))
    .sort();
  // One batch for every pending file (each file's ledger row first, as core/db/migrate.ts orders them):
  // one round trip per database, and all or nothing.
  const statements = files.flatMap((file) => [
    db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(file),
    ...readFileSync(join(root, dir, file), "utf8")
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean)
      .map((s) => db.prepare(s)),
  ]);
  if (statements.length) {
    await db.batch(statements);
  }
}

const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;

/**
 * Splits SQL text into statements at semicolons outside quotes and outside a trigger's BEGIN … END
 * (the seed's text is written for `wrangler d1 execute --file`; a binding runs one statement at a time).
 */
export function splitSql(text) {
  const out = [];
  let start = 0;
  let quote = null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) {
        quote = null;
      }
      continue;
    }
    if (c === "'" || c === '"' || c === "`") {
      quote = c;
    } else if (c === "-" && text[i + 1] === "-") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
    } else if (/[A-Za-z_]/.test(c) && !/[A-Za-z0-9_]/.test(text[i - 1] ?? " ")) {
      WORD.lastIndex = i;
      const word = WORD.exec(text)[0].toUpperCase();
      depth += word === "BEGIN" ? 1 : word === "END" && depth > 0 ? -1 : 0;
      i += word.length - 1;
    } else if (c === ";" && depth === 0) {
      const s = text.slice(start, i).trim();
      if (s) {
        out.push(s);
      }
      start = i + 1;
    }
  }
  const tail = text.slice(start).trim();
  if (tail && !/^(--[^\n]*\n?\s*)*$/.test(tail)) {
    out.push(tail);
  }
  return out;
}

export async function runAll(db, statements, chunk = 100) {
  for (let i = 0; i < statements.length; i += chunk) {
    const batch = () => db.batch(statements.slice(i, i + chunk).map((s) => db.prepare(s)));
    try {
      await batch();
    } catch (error) {
      // Miniflare's proxy may close a kept-alive socket that sat idle (a busy machine, a long CPU step
      // in Node between two calls): the request never reached the database, and the seed's statements
      // are INSERT OR IGNORE, so the batch is sent once more.
      if (error?.cause?.code !== "UND_ERR_SOCKET") {
        throw error;
      }
      await batch();
    }
  }
}
