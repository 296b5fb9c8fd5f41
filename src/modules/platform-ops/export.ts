import { z } from "zod";
import type { TenantCtx } from "../../core/context";
import { tenantPrefixes } from "../../core/tenancy/wipe";
import { writeHandover } from "./handover";
import { SIGNATURE_PATH, signManifest } from "./signature";
import { readTable, schemaVersion, tenantTables } from "./tables";
import { sha256Hex, ZipToR2 } from "./zip";

/** The archive's format: the manifest says which, and an import refuses any other. */
export const ARCHIVE_FORMAT = "warga-tenant-archive";
export const ARCHIVE_FORMAT_VERSION = 1;
export const MANIFEST_PATH = "manifest.json";

/**
 * The R2 prefixes a tenant owns (core/tenancy/wipe.ts, which also deletes them when a closed
 * community's archive window ends). Archives themselves live under `archives/`, outside both, so an
 * export never contains an earlier one.
 */
export { tenantPrefixes };

/**
 * Support tickets and their files are platform records (ADR 0009): exported for the community's copy,
 * not written back by an import, which restores the tenant database alone.
 */
export const NOT_RESTORED = [{ prefix: "id", under: "support/" }] as const;

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);
const EntryPath = z
  .string()
  .min(1)
  .max(1024)
  .refine((p) => !p.startsWith("/") && !p.split("/").includes("..") && !p.includes("\\"), "unsafe path");

export const ManifestEntry = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("table"),
    path: EntryPath,
    bytes: z.number().int().nonnegative(),
    sha256: Sha256,
    table: z.string().min(1).max(128),
    rows: z.number().int().nonnegative(),
  }),
  z.object({
    kind: z.literal("file"),
    path: EntryPath,
    bytes: z.number().int().nonnegative(),
    sha256: Sha256,
    /** Which of the tenant's prefixes the object was under, and its key below that prefix. */
    prefix: z.enum(["id", "slug"]),
    key: EntryPath,
    contentType: z.string().max(200).nullable(),
  }),
  /**
   * A file of the handover pack (handover.ts): made for people to open, checked like every entry,
   * never restored by an import (the tables and files are the community's data).
   */
  z.object({
    kind: z.literal("handover"),
    path: EntryPath,
    bytes: z.number().int().nonnegative(),
    sha256: Sha256,
    contentType: z.string().max(200),
  }),
]);
export type ManifestEntry = z.infer<typeof ManifestEntry>;

export const Manifest = z.object({
  format: z.literal(ARCHIVE_FORMAT),
  formatVersion: z.literal(ARCHIVE_FORMAT_VERSION),
  tenant: z.object({ id: z.string().min(1), slug: z.string().min(1), name: z.string(), type: z.string() }),
  /** The newest tenant migration applied when the archive was made. */
  schemaVersion: z.string().min(1),
  createdAt: z.string(),
  tables: z.record(z.string(), z.number().int().nonnegative()).describe("Rows per table"),
  entries: z.array(ManifestEntry),
});
export type Manifest = z.infer<typeof Manifest>;

/** A table entry's content. */
export const TableFile = z.object({
  table: z.string(),
  columns: z.array(z.string()),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null(), z.object({ $base64: z.string() })]))),
});
export type TableFile = z.infer<typeof TableFile>;

export { sha256Hex };

const encoder = new TextEncoder();

/**
 * Writes one tenant's archive to R2 at `key`: a JSON file per table of the tenant database, every R2
 * object under the tenant's prefixes, the handover pack (`index.html` and `serah-terima/`, handover.ts),
 * and `manifest.json` last (it holds every other entry's size and
 * SHA-256). Memory: one table's JSON or one file at a time, plus one multipart part.
 */
export async function writeArchive(
  ctx: TenantCtx,
  key: string,
  createdAt: Date,
): Promise<{ bytes: number; sha256: string; manifest: Manifest }> {
  const version = await schemaVersion(ctx);
  if (!version) {
    throw new Error("the tenant database has no applied migrations");
  }
  const zip = await ZipToR2.open(ctx.env.FILES, key);
  try {
    const entries: ManifestEntry[] = [];
    const rowCounts: Record<string, number> = {};
    // A table the database's triggers keep is rebuilt by the import from the rows it counts.
    for (const table of (await tenantTables(ctx)).filter((t) => t.archived)) {
      const rows = await readTable(ctx, table);
      const path = `tables/${table.name}.json`;
      const data = encoder.encode(JSON.stringify({ table: table.name, columns: table.columns, rows }));
      await zip.add(path, data, true);
      entries.push({
        kind: "table",
        path,
        bytes: data.byteLength,
        sha256: await sha256Hex(data),
        table: table.name,
        rows: rows.length,
      });
      rowCounts[table.name] = rows.length;
    }
    for (const [prefix, under] of Object.entries(tenantPrefixes(ctx.tenant)) as ["id" | "slug", string][]) {
      let cursor: string | undefined;
      do {
        const page = await ctx.env.FILES.list({ prefix: under, cursor, include: ["httpMetadata"] });
        for (const object of page.objects) {
          const body = await ctx.env.FILES.get(object.key);
          if (!body) {
            continue; // deleted since the listing
          }
          const data = new Uint8Array(await body.arrayBuffer());
          const rest = object.key.slice(under.length);
          const path = `files/${prefix}/${rest}`;
          await zip.add(path, data, false);
          entries.push({
            kind: "file",
            path,
            bytes: data.byteLength,
            sha256: await sha256Hex(data),
            prefix,
            key: rest,
            contentType: body.httpMetadata?.contentType ?? null,
          });
        }
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
    }
    // The handover pack last: its monthly reports and letters are printed, never stored, so the files
    // listed above are the tenant's R2 objects exactly.
    for (const file of await writeHandover(ctx, zip, createdAt)) {
      entries.push({ kind: "handover", ...file });
    }
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      formatVersion: ARCHIVE_FORMAT_VERSION,
      tenant: { id: ctx.tenant.id, slug: ctx.tenant.slug, name: ctx.tenant.name, type: ctx.tenant.type },
      schemaVersion: version,
      createdAt: createdAt.toISOString(),
      tables: rowCounts,
      entries,
    };
    const manifestBytes = encoder.encode(JSON.stringify(manifest, null, 2));
    await zip.add(MANIFEST_PATH, manifestBytes, true);
    await zip.add(SIGNATURE_PATH, encoder.encode(await signManifest(ctx.config, manifestBytes)), false);
    const { bytes } = await zip.close();
    // The whole archive's digest, for the status route and for whoever keeps the file elsewhere.
    const stored = await ctx.env.FILES.get(key);
    const sha256 = stored ? await digestStream(stored.body) : "";
    return { bytes, sha256, manifest };
  } catch (error) {
    await zip.abort();
    throw error;
  }
}

/** SHA-256 of a stream without holding it (workerd's DigestStream). */
async function digestStream(body: ReadableStream): Promise<string> {
  const digest = new crypto.DigestStream("SHA-256");
  await body.pipeTo(digest);
  return [...new Uint8Array(await digest.digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}
