import { inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { TenantCtx } from "../../core/context";
import { rowById } from "../../core/db/rows";
import { tenantFiles } from "../../core/db/tenant-schema";
import { Forbidden, Invalid, NotFound } from "../../core/errors";
import { IMAGE_EXTENSION, type ImageType, type ImageUpload } from "../../core/files";
import { hasRole, requireUser } from "../../core/http/access";
import { log } from "../../core/http/log";
import { newId } from "../../core/ids";
import { createRateLimit } from "../../core/rateLimit";
import { uploadQuota } from "./limits";
import { stripImageMetadata } from "./metadata";
import { type FilePurpose, PURPOSE_POLICY } from "./purposes";

export type TenantFileRow = typeof tenantFiles.$inferSelect;

/** A stored file as modules and clients see it. */
export interface TenantFile {
  id: string;
  purpose: FilePurpose;
  url: string;
  contentType: ImageType;
  size: number;
  sha256: string;
  uploadedBy: string;
  createdAt: string;
}

/** Every member may upload; this stops one account filling the bucket (a phone retrying in a loop). */
const uploadRateLimit = createRateLimit({ "files-upload:user": { limit: 120, windowSeconds: 60 * 60 } });

/** The access-checked route that serves a file: the only URL a client ever gets for it. */
export const tenantFileUrl = (ctx: Pick<TenantCtx, "config">, id: string) =>
  `${ctx.config.APP_URL.replace(/\/$/, "")}/api/files/${id}`;

export function presentTenantFile(ctx: Pick<TenantCtx, "config">, row: TenantFileRow): TenantFile {
  return {
    id: row.id,
    purpose: row.purpose as FilePurpose,
    url: tenantFileUrl(ctx, row.id),
    contentType: row.contentType as ImageType,
    size: row.size,
    sha256: row.sha256,
    uploadedBy: row.uploadedBy,
    createdAt: row.createdAt,
  };
}

async function sha256Of(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Cleans an image (platform/uploads/metadata.ts), puts it in R2 under a key the server chose, and returns
 * the row's INSERT for the caller's batch, so the file and what it belongs to (a gallery photo, an
 * audit record) are written together. R2 first: a batch that then fails leaves an object nothing
 * points to, never a row pointing at nothing.
 */
export async function prepareTenantFile(
  ctx: TenantCtx,
  input: { upload: ImageUpload; purpose: FilePurpose },
): Promise<{
  file: TenantFile;
  removed: string[];
  insert: BatchItem<"sqlite">;
  /** Removes the object again when the caller's batch did not commit. */
  discard: () => Promise<void>;
}> {
  const uploadedBy = requireUser(ctx).userId;
  const clean = stripImageMetadata(input.upload.bytes, input.upload.contentType);
  const id = newId();
  const key = `tenants/${ctx.tenant.id}/files/${input.purpose}/${id}.${IMAGE_EXTENSION[input.upload.contentType]}`;
  const sha256 = await sha256Of(clean.bytes);
  await ctx.env.FILES.put(key, clean.bytes, {
    httpMetadata: { contentType: input.upload.contentType },
    sha256,
  });
  const row: TenantFileRow = {
    id,
    purpose: input.purpose,
    r2Key: key,
    contentType: input.upload.contentType,
    size: clean.bytes.byteLength,
    sha256,
    uploadedBy,
    createdAt: ctx.now().toISOString(),
  };
  return {
    file: presentTenantFile(ctx, row),
    removed: clean.removed,
    insert: ctx.db.insert(tenantFiles).values(row),
    discard: () => ctx.env.FILES.delete(key),
  };
}

function requireFlag(ctx: TenantCtx, purpose: FilePurpose): void {
  const flag = PURPOSE_POLICY[purpose].flag;
  if (flag && !ctx.tenant.flags[flag]) {
    throw new Forbidden("feature_disabled", `The ${flag} feature is switched off for this community.`);
  }
}

/** `POST /api/files`: a member's upload for one of the purposes open to their role. */
export async function uploadTenantFile({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { upload: ImageUpload; purpose: FilePurpose };
}) {
  const policy = PURPOSE_POLICY[input.purpose];
  if (!policy.upload || !hasRole(ctx, policy.upload)) {
    throw new Forbidden("forbidden_purpose", `Your role may not upload files for "${input.purpose}".`);
  }
  requireFlag(ctx, input.purpose);
  await uploadRateLimit(ctx.env, [{ policy: "files-upload:user", subject: requireUser(ctx).userId }]);
  await uploadQuota(ctx, "files-bytes:member", input.upload.bytes.byteLength);
  const prepared = await prepareTenantFile(ctx, input);
  await prepared.insert;
  return { ...prepared.file, metadataRemoved: prepared.removed };
}

/**
 * The check a module makes on a file id it is given (a proof of payment on a dues payment, a cover on
 * a news article): the file is this tenant's (another tenant's id is simply not in `ctx.db`: 404
 * `file_not_found`), was uploaded by `ownedBy` when given (someone else's upload: 404 as well), and has
 * one of `purposes` (400 `invalid_file_purpose`, on `field`).
 */
export async function requireTenantFile(
  ctx: TenantCtx,
  id: string,
  options: { purposes: readonly FilePurpose[]; ownedBy?: string; field?: string },
): Promise<TenantFile> {
  const row = await rowById(ctx.db, tenantFiles, id);
  if (!row || (options.ownedBy !== undefined && row.uploadedBy !== options.ownedBy)) {
    throw new NotFound("File", "file_not_found");
  }
  if (!(options.purposes as readonly string[]).includes(row.purpose)) {
    const field = options.field ?? "fileId";
    throw new Invalid(
      "invalid_file_purpose",
      `This file was not uploaded as ${options.purposes.join(" or ")}.`,
      [{ field, message: `purpose is ${row.purpose}` }],
    );
  }
  return presentTenantFile(ctx, row);
}

/** Several files at once (a listing's photos), keyed by id; ids not in this tenant are absent. */
export async function tenantFilesByIds(
  ctx: TenantCtx,
  ids: readonly string[],
): Promise<Map<string, TenantFile>> {
  if (ids.length === 0) {
    return new Map();
  }
  const rows = await ctx.db
    .select()
    .from(tenantFiles)
    .where(inArray(tenantFiles.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, presentTenantFile(ctx, row)]));
}

/**
 * Deleting files: the rows' DELETE goes in the caller's batch; `purge` removes the bytes from R2 after
 * that batch has committed. Best effort: an object left behind by a failure there is unreachable (no
 * row names it), so it is logged, not thrown.
 */
export async function planTenantFileDeletion(
  ctx: TenantCtx,
  ids: readonly string[],
): Promise<{ statement: BatchItem<"sqlite">; purge: () => Promise<void> }> {
  const unique = [...new Set(ids)];
  const rows = unique.length
    ? await ctx.db.select({ key: tenantFiles.r2Key }).from(tenantFiles).where(inArray(tenantFiles.id, unique))
    : [];
  return {
    statement: ctx.db.delete(tenantFiles).where(inArray(tenantFiles.id, unique.length ? unique : [""])),
    async purge() {
      if (rows.length === 0) {
        return;
      }
      try {
        await ctx.env.FILES.delete(rows.map((r) => r.key));
      } catch (error) {
        log("warn", "tenant_file_purge_failed", { tenant: ctx.tenant.slug, error: String(error) });
      }
    },
  };
}

/** Signed-in members only, and the answer depends on who asks: private caches only. */
const CACHE_CONTROL = "private, max-age=86400";

/**
 * `GET /api/files/:id`: the uploader, and the roles the file's purpose opens it to. Anyone else gets
 * 404, as for a file that does not exist. The ETag is the stored bytes' SHA-256, so an app revalidating
 * with If-None-Match gets 304 without the image being read from R2 at all.
 */
export async function serveTenantFile({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: { ifNoneMatch: string | null };
}): Promise<Response> {
  const row = await rowById(ctx.db, tenantFiles, id);
  const purpose = row?.purpose as FilePurpose | undefined;
  const policy = purpose ? PURPOSE_POLICY[purpose] : undefined;
  if (!row || !purpose || !policy) {
    throw new NotFound("File", "file_not_found");
  }
  if (row.uploadedBy !== requireUser(ctx).userId && !hasRole(ctx, policy.read)) {
    throw new NotFound("File", "file_not_found");
  }
  requireFlag(ctx, purpose);
  return serveRow(ctx, row, input.ifNoneMatch);
}

/**
 * A file its module has already authorised the caller for (a walk-in's photo, read by the host's
 * household through `GET /api/visitor/:id/foto`): served like `GET /api/files/:id`, without the
 * purpose's role check, but only a file of `purpose` (anything else: 404).
 */
export async function serveAuthorisedTenantFile({
  ctx,
  id,
  purpose,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  purpose: FilePurpose;
  input: { ifNoneMatch: string | null };
}): Promise<Response> {
  const row = await rowById(ctx.db, tenantFiles, id);
  if (!row || row.purpose !== purpose) {
    throw new NotFound("File", "file_not_found");
  }
  requireFlag(ctx, purpose);
  return serveRow(ctx, row, input.ifNoneMatch);
}

async function serveRow(ctx: TenantCtx, row: TenantFileRow, ifNoneMatch: string | null): Promise<Response> {
  // Issue 31, N7: a row names its object, but only an object under this tenant's prefix is served
  // (a row restored from a forged archive could name another community's key).
  if (!row.r2Key.startsWith(`tenants/${ctx.tenant.id}/`)) {
    log("warn", "file.key_outside_tenant", { tenant: ctx.tenant.slug, fileId: row.id });
    throw new NotFound("File", "file_not_found");
  }
  const etag = `"${row.sha256}"`;
  const headers = {
    ETag: etag,
    "Cache-Control": CACHE_CONTROL,
    "X-Content-Type-Options": "nosniff",
  };
  const wanted = (ifNoneMatch ?? "").split(",").map((t) => t.trim().replace(/^W\//, ""));
  if (wanted.includes(etag) || wanted.includes("*")) {
    return new Response(null, { status: 304, headers });
  }
  const object = await ctx.env.FILES.get(row.r2Key);
  if (!object) {
    throw new NotFound("File", "file_not_found");
  }
  return new Response(object.body, {
    headers: {
      ...headers,
      "Content-Type": row.contentType,
      "Content-Length": String(object.size),
      "Content-Disposition": "inline",
    },
  });
}
