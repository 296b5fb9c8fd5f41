import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { abortBatchUnless } from "../../core/db/errors";
import { rowById, rowByIdOrNotFound } from "../../core/db/rows";
import { DomainError, Invalid, NotFound } from "../../core/errors";
import { IMAGE_EXTENSION, type ImageUpload } from "../../core/files";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { tokenTenantCtx } from "../../core/tenancy/contexts";
import { supportRateLimit } from "./limits";
import { supportFiles } from "./platform-tables";
import { type FileRow, fileUrl, findTicketByToken, loadTicket, publicFileUrl, type TicketRow } from "./store";

/** Who is attaching: an upload may only be attached by the side that made it. */
export type AttachOwner =
  | { scope: "tenant"; tenantId: string }
  | { scope: "platform" }
  | { scope: "public"; ticketId: string };

async function store(
  ctx: PlatformCtx,
  upload: ImageUpload,
  row: Pick<FileRow, "scope" | "tenantId" | "uploadedBy" | "ticketId">,
  prefix: string,
): Promise<string> {
  const id = newId();
  const key = `${prefix}/support/${id}.${IMAGE_EXTENSION[upload.contentType]}`;
  // R2 first: a failed insert leaves an unreferenced object, never a row pointing at nothing.
  await ctx.env.FILES.put(key, upload.bytes, { httpMetadata: { contentType: upload.contentType } });
  await ctx.platform.insert(supportFiles).values({
    id,
    ...row,
    r2Key: key,
    contentType: upload.contentType,
    size: upload.size,
    filename: upload.filename.slice(0, 200) || null,
  });
  return id;
}

/** A tenant staff member's image, stored before the ticket or reply it will be attached to exists. */
export async function uploadTenantImage({ ctx, input }: { ctx: TenantCtx; input: ImageUpload }) {
  const id = await store(
    ctx,
    input,
    { scope: "tenant", tenantId: ctx.tenant.id, uploadedBy: requireUser(ctx).userId, ticketId: null },
    `tenants/${ctx.tenant.id}`,
  );
  return { url: fileUrl(ctx, id) };
}

export async function uploadPlatformImage({ ctx, input }: { ctx: PlatformCtx; input: ImageUpload }) {
  const id = await store(
    ctx,
    input,
    { scope: "platform", tenantId: null, uploadedBy: requireUser(ctx).userId, ticketId: null },
    "platform",
  );
  return { url: fileUrl(ctx, id) };
}

export async function uploadPublicImage({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: { token: string; file: ImageUpload };
}) {
  await supportRateLimit(ctx.env, [
    { policy: "support-public-write:ip", subject: ctx.ip },
    { policy: "support-public-write:token", subject: input.token },
  ]);
  const ticket = await findTicketByToken(ctx, input.token);
  const id = await storePublic(ctx, ticket, input.file);
  return { url: publicFileUrl(ctx, input.token, id) };
}

/** A login-free upload belongs to its ticket from the start, under that ticket's owner's prefix. */
export function storePublic(ctx: PlatformCtx, ticket: TicketRow, upload: ImageUpload): Promise<string> {
  return store(
    ctx,
    upload,
    { scope: "public", tenantId: ticket.tenantId, uploadedBy: null, ticketId: ticket.id },
    ticket.tenantId ? `tenants/${ticket.tenantId}` : "platform",
  );
}

const URL_ID = /\/api\/(?:support-files|public\/support-tickets\/[^/]+\/files)\/([0-9A-Za-z]{10,64})\/?$/;

const invalidAttachment = (field: string, message: string) =>
  new Invalid("invalid_attachment", message, [{ field, message }]);

/**
 * Checks that `url` names an upload this owner made and that is not attached yet, and returns the
 * batch statements that attach it: a conditional UPDATE plus a guard, so of two writes racing to
 * attach one upload, only one batch commits.
 */
export async function attachStatements(
  ctx: PlatformCtx,
  input: { url: string; field: string; owner: AttachOwner; ticketId: string; messageId: string | null },
): Promise<{ fileId: string; attachId: string; statements: BatchItem<"sqlite">[] }> {
  const fileId = URL_ID.exec(input.url)?.[1];
  const file = fileId ? await rowById(ctx.platform, supportFiles, fileId) : undefined;
  const owner = input.owner;
  const mine =
    file !== undefined &&
    file.scope === owner.scope &&
    (owner.scope !== "tenant" || file.tenantId === owner.tenantId) &&
    (owner.scope !== "public" || file.ticketId === owner.ticketId);
  if (!file || !mine) {
    throw invalidAttachment(input.field, "Upload the image first; only your own uploads can be attached.");
  }
  if (file.attachedAt !== null) {
    throw invalidAttachment(input.field, "This image is already attached elsewhere.");
  }
  const attachId = newId();
  return {
    fileId: file.id,
    attachId,
    statements: [
      ctx.platform
        .update(supportFiles)
        .set({
          ticketId: input.ticketId,
          messageId: input.messageId,
          attachedAt: ctx.now().toISOString(),
          attachId,
        })
        .where(and(eq(supportFiles.id, file.id), isNull(supportFiles.attachedAt))),
      abortBatchUnless(ctx.platform, supportFiles, file.id, sql`${supportFiles.attachId} = ${attachId}`),
    ],
  };
}

/** After a guard aborted a batch: was it the attachment (taken meanwhile) rather than the ticket? */
export async function attachmentLost(ctx: PlatformCtx, fileId: string, attachId: string): Promise<boolean> {
  const row = await rowById(ctx.platform, supportFiles, fileId);
  return row?.attachedAt !== null && row?.attachId !== attachId;
}

/**
 * Signed-in viewers: private, briefly cached (the answer depends on who asks; a shared cache must never
 * keep it). By reply token: never stored, since the URL itself is the credential (the route declares it
 * secret, which says `no-store` as well).
 */
const CACHE = { signedIn: "private, max-age=300", byToken: "no-store" } as const;

async function objectResponse(
  ctx: PlatformCtx,
  file: FileRow,
  cache: string = CACHE.signedIn,
): Promise<Response> {
  const object = await ctx.env.FILES.get(file.r2Key);
  if (!object) {
    throw new NotFound("File");
  }
  return new Response(object.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(object.size),
      "Cache-Control": cache,
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

async function fileRow(ctx: PlatformCtx, id: string): Promise<FileRow> {
  return rowByIdOrNotFound(ctx.platform, supportFiles, id, "File");
}

/**
 * The tenant a signed-in staff member's token names (the ticket routes' roles), through the same checks
 * as the guard; any refusal is null.
 */
async function staffTenantId(ctx: PlatformCtx, tenantSlug: string | null): Promise<string | null> {
  if (!tenantSlug || !hasRole(ctx, ROLES.STAFF)) {
    return null;
  }
  try {
    return (await tokenTenantCtx(ctx)).tenant.id;
  } catch (error) {
    // Unknown or suspended: the token's tenant may not see files any more than a stranger may.
    if (error instanceof DomainError && (error.kind === "not_found" || error.kind === "forbidden")) {
      return null;
    }
    throw error;
  }
}

/**
 * Operators see every ticket's files; a tenant's staff see the files of their tenant's tickets and
 * their own tenant's uploads not attached yet. Anything else (a suspended tenant included) is 404,
 * not 403: the file route does not tell who else may see a file.
 */
export async function serveFile({ ctx, id }: { ctx: PlatformCtx; id: string }): Promise<Response> {
  const file = await fileRow(ctx, id);
  const actor = requireUser(ctx);
  if (actor.roles.includes("super_admin")) {
    return objectResponse(ctx, file);
  }
  const tenantId = await staffTenantId(ctx, actor.tenantSlug);
  if (!tenantId) {
    throw new NotFound("File");
  }
  const ticket = file.ticketId ? await loadTicket(ctx, file.ticketId) : undefined;
  const owned = ticket ? ticket.tenantId === tenantId : file.scope === "tenant" && file.tenantId === tenantId;
  if (!owned) {
    throw new NotFound("File");
  }
  return objectResponse(ctx, file);
}

/** The login-free page sees the files of the ticket its token opens, and nothing else. */
export async function servePublicFile({
  ctx,
  id,
  input,
}: {
  ctx: PlatformCtx;
  id: string;
  input: { token: string };
}): Promise<Response> {
  await supportRateLimit(ctx.env, [{ policy: "support-public-read:ip", subject: ctx.ip }]);
  const ticket = await findTicketByToken(ctx, input.token);
  const file = await fileRow(ctx, id);
  if (file.ticketId !== ticket.id) {
    throw new NotFound("File");
  }
  return objectResponse(ctx, file, CACHE.byToken);
}
