import { rawAudit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { rawD1, sqlName } from "../../core/db/raw";
import { Conflict, Unprocessable } from "../../core/errors";
import { log } from "../../core/http/log";
import {
  MANIFEST_PATH,
  Manifest,
  type ManifestEntry,
  NOT_RESTORED,
  sha256Hex,
  TableFile,
  tenantPrefixes,
} from "./export";
import { SIGNATURE_PATH, verifyManifest } from "./signature";
import { type Cell, decodeCell, nonEmptyTables, schemaVersion, type TableInfo, tenantTables } from "./tables";
import { readZipDirectory, readZipEntry, type ZipEntry, ZipFormatError } from "./zip";

/** Largest single entry an import reads (a table's JSON, one file). */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** D1 binds at most 100 parameters per statement. */
const MAX_PARAMS = 100;
/** Statements per D1 batch. */
const BATCH_STATEMENTS = 50;

const decoder = new TextDecoder();

function invalid(reason: string): Unprocessable {
  return new Unprocessable("archive_invalid", `The archive cannot be imported: ${reason}.`);
}

interface Checked {
  manifest: Manifest;
  byPath: Map<string, ZipEntry>;
}

/**
 * Reads and checks everything before anything is written: the manifest's format, the schema version
 * against the target's, every entry's presence, size and SHA-256, and every table's columns against the
 * target's. Any mismatch is a 422 naming the reason.
 */
async function checkArchive(ctx: TenantCtx, bucket: R2Bucket, key: string, size: number): Promise<Checked> {
  let directory: ZipEntry[];
  try {
    directory = await readZipDirectory(bucket, key, size);
  } catch (error) {
    throw error instanceof ZipFormatError ? invalid(error.message) : error;
  }
  const byPath = new Map(directory.map((e) => [e.name, e]));
  const manifestEntry = byPath.get(MANIFEST_PATH);
  if (!manifestEntry) {
    throw invalid("it has no manifest.json");
  }
  const read = async (entry: ZipEntry) => {
    try {
      return await readZipEntry(bucket, key, entry, MAX_ENTRY_BYTES);
    } catch (error) {
      throw error instanceof ZipFormatError ? invalid(error.message) : error;
    }
  };
  const manifestBytes = await read(manifestEntry);
  const signatureEntry = byPath.get(SIGNATURE_PATH);
  const signature = signatureEntry ? decoder.decode(await read(signatureEntry)) : "";
  if (!(await verifyManifest(ctx.config, manifestBytes, signature))) {
    throw new Unprocessable(
      "archive_signature_invalid",
      "The archive does not carry this platform's signature: it was not exported here, or it was changed.",
    );
  }
  let manifest: Manifest;
  try {
    manifest = Manifest.parse(JSON.parse(decoder.decode(manifestBytes)));
  } catch (error) {
    if (error instanceof Unprocessable) {
      throw error;
    }
    throw invalid("manifest.json is not a Warga tenant archive manifest of a format this build reads");
  }
  const target = await schemaVersion(ctx);
  if (manifest.schemaVersion !== target) {
    throw new Unprocessable(
      "archive_schema_mismatch",
      `The archive was made at schema ${manifest.schemaVersion}; this tenant is at ${target ?? "none"}. Import it into a database at the same migration.`,
    );
  }
  const listed = new Set(manifest.entries.map((e) => e.path));
  if (listed.size !== manifest.entries.length) {
    throw invalid("the manifest lists an entry twice");
  }
  for (const name of byPath.keys()) {
    if (name !== MANIFEST_PATH && name !== SIGNATURE_PATH && !listed.has(name)) {
      throw invalid(`${name} is in the archive but not in its manifest`);
    }
  }
  const tables = new Map((await tenantTables(ctx)).map((t) => [t.name, t]));
  const seenTables = new Set<string>();
  for (const entry of manifest.entries) {
    const zipEntry = byPath.get(entry.path);
    if (!zipEntry) {
      throw invalid(`${entry.path} is in the manifest but not in the archive`);
    }
    const bytes = await read(zipEntry);
    if (bytes.byteLength !== entry.bytes || (await sha256Hex(bytes)) !== entry.sha256) {
      throw new Unprocessable(
        "archive_checksum_mismatch",
        `${entry.path} does not match the size and SHA-256 in the manifest; the archive was changed or damaged.`,
      );
    }
    if (entry.kind === "table") {
      const table = tables.get(entry.table);
      if (!table || seenTables.has(entry.table)) {
        throw invalid(`table ${entry.table} is unknown to this schema or listed twice`);
      }
      seenTables.add(entry.table);
      const content = parseTable(bytes, entry);
      const unknown = content.columns.filter((c) => !table.columns.includes(c));
      if (unknown.length > 0) {
        throw invalid(`table ${entry.table} has columns this schema lacks: ${unknown.join(", ")}`);
      }
      if (content.rows.some((r) => r.length !== content.columns.length)) {
        throw invalid(`table ${entry.table} has a row whose width differs from its columns`);
      }
      requireOwnKeys(content, entry.table, manifest.tenant);
    }
  }
  return { manifest, byPath };
}

/**
 * Issue 31, N7: a row that names a stored object (`r2_key`) must name one under the archive's own
 * tenant's prefixes, which the import moves to the new tenant's; any other key (another community's)
 * refuses the whole archive.
 */
function requireOwnKeys(content: TableFile, table: string, tenant: { id: string; slug: string }): void {
  const at = content.columns.indexOf("r2_key");
  if (at < 0) {
    return;
  }
  const own = Object.values(tenantPrefixes(tenant));
  for (const row of content.rows) {
    const key = row[at];
    if (key !== null && (typeof key !== "string" || !own.some((prefix) => key.startsWith(prefix)))) {
      throw invalid(`table ${table} has a row whose r2_key lies outside the archive's tenant`);
    }
  }
}

function parseTable(bytes: Uint8Array, entry: Extract<ManifestEntry, { kind: "table" }>): TableFile {
  let content: TableFile;
  try {
    content = TableFile.parse(JSON.parse(decoder.decode(bytes)));
  } catch {
    throw invalid(`${entry.path} is not a table file`);
  }
  if (content.table !== entry.table || content.rows.length !== entry.rows) {
    throw invalid(`${entry.path} does not hold the ${entry.rows} rows of ${entry.table} the manifest names`);
  }
  return content;
}

/** R2 keys the old tenant's rows point at (a file row's `r2_key`) are moved to the new tenant's prefix. */
function keyRewriter(from: { id: string; slug: string }, to: { id: string; slug: string }) {
  const old = tenantPrefixes(from);
  const now = tenantPrefixes(to);
  return (value: string | number | null | Uint8Array) => {
    if (typeof value !== "string") {
      return value;
    }
    if (value.startsWith(old.id)) {
      return now.id + value.slice(old.id.length);
    }
    if (value.startsWith(old.slug)) {
      return now.slug + value.slice(old.slug.length);
    }
    return value;
  };
}

/** Multi-row INSERTs for one table file's rows, chunked so no statement binds over `MAX_PARAMS`. */
function insertStatements(
  d1: D1Database,
  content: TableFile,
  rewrite: ReturnType<typeof keyRewriter>,
): D1PreparedStatement[] {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / content.columns.length));
  const columns = content.columns.map(sqlName).join(", ");
  const tuple = `(${content.columns.map(() => "?").join(", ")})`;
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < content.rows.length; i += perStatement) {
    const chunk = content.rows.slice(i, i + perStatement);
    statements.push(
      d1
        .prepare(
          `INSERT INTO ${sqlName(content.table)} (${columns}) VALUES ${chunk.map(() => tuple).join(", ")}`,
        )
        .bind(...chunk.flatMap((row) => row.map((cell: Cell) => rewrite(decodeCell(cell))))),
    );
  }
  return statements;
}

const restored = (entry: Extract<ManifestEntry, { kind: "file" }>) =>
  !NOT_RESTORED.some((n) => n.prefix === entry.prefix && entry.key.startsWith(n.under));

export interface ImportReport {
  schemaVersion: string;
  tables: Record<string, number>;
  rows: number;
  files: number;
  skippedFiles: number;
  bytes: number;
}

/** 409 unless every data table of the tenant is empty; answers the tables. */
export async function requireEmptyTenant(ctx: TenantCtx): Promise<TableInfo[]> {
  const tables = await tenantTables(ctx);
  // A request's bookkeeping (an idempotency key of the operator's own request) is not the tenant's data.
  const filled = await nonEmptyTables(
    ctx,
    tables.filter((t) => t.archived || t.keptByTriggers),
  );
  if (filled.length > 0) {
    throw new Conflict(
      "tenant_not_empty",
      `An archive is imported only into an empty tenant; this one has rows in ${filled.slice(0, 5).join(", ")}${filled.length > 5 ? ", …" : ""}.`,
    );
  }
  return tables;
}

/**
 * The archive's tables to write, parents first as the tenant's schema orders them. An archive's copy of
 * a table archives do not carry (one made before they left it out) is not written: a table the
 * triggers keep is rebuilt by restoring the rows it counts, and request bookkeeping (idempotency keys,
 * whose kept answers could carry credentials) is not the community's data.
 */
function tablesToWrite(manifest: Manifest, tables: readonly TableInfo[]) {
  const order = new Map(tables.map((t, i) => [t.name, i]));
  const notCarried = new Set(tables.filter((t) => !t.archived).map((t) => t.name));
  return manifest.entries
    .filter((e): e is Extract<ManifestEntry, { kind: "table" }> => e.kind === "table")
    .filter((e) => !notCarried.has(e.table))
    .sort((a, b) => (order.get(a.table) ?? 0) - (order.get(b.table) ?? 0));
}

/**
 * Restores an archive (an R2 object) into `ctx`'s tenant, which must be empty: checks everything first
 * (422, nothing written), then writes the rows in foreign-key order in D1 batches with the audit record
 * in the last one, and the files under the new tenant's prefixes. A failure half-way empties the
 * tenant's tables again and removes the files written, so the tenant is as empty as it was.
 */
export async function importArchive(
  ctx: TenantCtx,
  source: { bucket: R2Bucket; key: string; size: number },
): Promise<ImportReport> {
  const tables = await requireEmptyTenant(ctx);
  const { manifest, byPath } = await checkArchive(ctx, source.bucket, source.key, source.size);
  const rewrite = keyRewriter(manifest.tenant, ctx.tenant);
  const d1 = rawD1(ctx);
  const tableEntries = tablesToWrite(manifest, tables);
  const fileEntries = manifest.entries.filter(
    (e): e is Extract<ManifestEntry, { kind: "file" }> => e.kind === "file",
  );
  const written: string[] = [];
  let rows = 0;
  try {
    let pending: D1PreparedStatement[] = [];
    const flush = async () => {
      if (pending.length > 0) {
        await d1.batch(pending);
        pending = [];
      }
    };
    for (const entry of tableEntries) {
      const zipEntry = byPath.get(entry.path) as ZipEntry;
      const content = parseTable(
        await readZipEntry(source.bucket, source.key, zipEntry, MAX_ENTRY_BYTES),
        entry,
      );
      if (content.rows.length === 0 || content.columns.length === 0) {
        continue;
      }
      for (const statement of insertStatements(d1, content, rewrite)) {
        pending.push(statement);
        if (pending.length >= BATCH_STATEMENTS) {
          await flush();
        }
      }
      rows += content.rows.length;
    }
    let skippedFiles = 0;
    let bytes = 0;
    const prefixes = tenantPrefixes(ctx.tenant);
    for (const entry of fileEntries) {
      if (!restored(entry)) {
        skippedFiles++;
        continue;
      }
      const data = await readZipEntry(
        source.bucket,
        source.key,
        byPath.get(entry.path) as ZipEntry,
        MAX_ENTRY_BYTES,
      );
      const key = prefixes[entry.prefix] + entry.key;
      await ctx.env.FILES.put(key, data, {
        sha256: entry.sha256,
        ...(entry.contentType ? { httpMetadata: { contentType: entry.contentType } } : {}),
      });
      written.push(key);
      bytes += data.byteLength;
    }
    const report: ImportReport = {
      schemaVersion: manifest.schemaVersion,
      tables: manifest.tables,
      rows,
      files: fileEntries.length - skippedFiles,
      skippedFiles,
      bytes,
    };
    pending.push(
      rawAudit(ctx, {
        action: "tenant.archive_imported",
        targetType: "tenant",
        targetId: ctx.tenant.id,
        detail: {
          from: { tenantId: manifest.tenant.id, slug: manifest.tenant.slug, createdAt: manifest.createdAt },
          rows,
          files: report.files,
        },
      }),
    );
    await flush();
    return report;
  } catch (error) {
    log("error", "archive_import_failed", { tenant: ctx.tenant.slug, error: String(error) });
    // The tenant was empty before: empty it again (children first), and drop the files written.
    await d1
      .batch([...tables].reverse().map((t) => d1.prepare(`DELETE FROM ${sqlName(t.name)}`)))
      .catch((cleanup: unknown) => log("error", "archive_import_cleanup_failed", { error: String(cleanup) }));
    for (let i = 0; i < written.length; i += 1000) {
      await ctx.env.FILES.delete(written.slice(i, i + 1000)).catch(() => undefined);
    }
    throw error;
  }
}
