import { and, eq, isNull, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Actor, PlatformCtx, TenantCtx } from "../../core/context";
import type { Bindings } from "../../core/env";
import { Invalid, NotFound } from "../../core/errors";
import { IMAGE_EXTENSION, type ImageUpload, readImageUpload } from "../../core/files";
import { newId } from "../../core/ids";
import { findTenantBySlug } from "../../core/tenancy";
import { supportRateLimit } from "./limits";
import { supportFiles } from "./platform-tables";
import {
  abortUnless,
  db,
  type FileRow,
  fileUrl,
  findTicketByToken,
  loadTicket,
  publicFileUrl,
  type TicketRow,
} from "./store";

/** Who is attaching: an upload may only be attached by the side that made it. */
export type AttachOwner =
  | { scope: "tenant"; tenantId: string }
  | { scope: "platform" }
  | { scope: "public"; ticketId: string };

async function store(
  env: Bindings,
  upload: ImageUpload,
  row: Pick<FileRow, "scope" | "tenantId" | "uploadedBy" | "ticketId">,
  prefix: string,
): Promise<string> {
  const id = newId();
  const key = `${prefix}/support/${id}.${IMAGE_EXTENSION[upload.contentType]}`;
  // R2 first: a failed insert leaves an unreferenced object, never a row pointing at nothing.
  await env.FILES.put(key, upload.bytes, { httpMetadata: { contentType: upload.contentType } });
  await db(env)
    .insert(supportFiles)
    .values({
      id,
      ...row,
      r2Key: key,
      contentType: upload.contentType,
      size: upload.size,
      filename: upload.filename.slice(0, 200) || null,
    });
  return id;
}

const userId = (actor: Actor) => (actor.kind === "user" ? actor.userId : null);

export async function uploadTenantImage({ ctx, request }: { ctx: TenantCtx; request: Request }) {
  const upload = await readImageUpload(request);
  const id = await store(
    ctx.env,
    upload,
    { scope: "tenant", tenantId: ctx.tenant.id, uploadedBy: userId(ctx.actor), ticketId: null },
    `tenants/${ctx.tenant.id}`,
  );
  return { url: fileUrl(ctx.env, id) };
}

export async function uploadPlatformImage({ ctx, request }: { ctx: PlatformCtx; request: Request }) {
  const upload = await readImageUpload(request);
  const id = await store(
    ctx.env,
    upload,
    { scope: "platform", tenantId: null, uploadedBy: userId(ctx.actor), ticketId: null },
    "platform",
  );
  return { url: fileUrl(ctx.env, id) };
}

export async function uploadPublicImage({
  ctx,
  token,
  request,
}: {
  ctx: PlatformCtx;
  token: string;
  request: Request;
}) {
  await supportRateLimit(ctx.env, [
    { policy: "support-public-write:ip", subject: ctx.ip },
    { policy: "support-public-write:token", subject: token },
  ]);
  const ticket = await findTicketByToken(ctx.env, token);
  const upload = await readImageUpload(request);
  const id = await storePublic(ctx.env, ticket, upload);
  return { url: publicFileUrl(ctx.env, token, id) };
}

/** A login-free upload belongs to its ticket from the start, under that ticket's owner's prefix. */
export function storePublic(env: Bindings, ticket: TicketRow, upload: ImageUpload): Promise<string> {
  return store(
    env,
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
  env: Bindings,
  input: { url: string; field: string; owner: AttachOwner; ticketId: string; messageId: string | null },
): Promise<{ fileId: string; attachId: string; statements: BatchItem<"sqlite">[] }> {
  const fileId = URL_ID.exec(input.url)?.[1];
  const file = fileId
    ? await db(env).select().from(supportFiles).where(eq(supportFiles.id, fileId)).get()
    : undefined;
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
  const database = db(env);
  return {
    fileId: file.id,
    attachId,
    statements: [
      database
        .update(supportFiles)
        .set({
          ticketId: input.ticketId,
          messageId: input.messageId,
          attachedAt: new Date().toISOString(),
          attachId,
        })
        .where(and(eq(supportFiles.id, file.id), isNull(supportFiles.attachedAt))),
      abortUnless(database, supportFiles, file.id, sql`${supportFiles.attachId} = ${attachId}`),
    ],
  };
}

/** After a guard aborted a batch: was it the attachment (taken meanwhile) rather than the ticket? */
export async function attachmentLost(env: Bindings, fileId: string, attachId: string): Promise<boolean> {
  const row = await db(env).select().from(supportFiles).where(eq(supportFiles.id, fileId)).get();
  return row?.attachedAt !== null && row?.attachId !== attachId;
}

async function objectResponse(env: Bindings, file: FileRow): Promise<Response> {
  const object = await env.FILES.get(file.r2Key);
  if (!object) {
    throw new NotFound("File");
  }
  return new Response(object.body, {
    headers: {
      "Content-Type": file.contentType,
      "Content-Length": String(object.size),
      // Private: the response depends on who asks; a shared cache must never keep it.
      "Cache-Control": "private, max-age=300",
      "Content-Disposition": "inline",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

async function fileRow(env: Bindings, id: string): Promise<FileRow> {
  const file = await db(env).select().from(supportFiles).where(eq(supportFiles.id, id)).get();
  if (!file) {
    throw new NotFound("File");
  }
  return file;
}

/**
 * Operators see every ticket's files; a tenant admin sees the files of their tenant's tickets and
 * their own tenant's uploads not attached yet. Anything else is 404, not 403.
 */
export async function serveFile({ ctx, id }: { ctx: PlatformCtx; id: string }): Promise<Response> {
  const file = await fileRow(ctx.env, id);
  const actor = ctx.actor;
  if (actor.kind !== "user") {
    throw new NotFound("File");
  }
  if (actor.role === "super_admin") {
    return objectResponse(ctx.env, file);
  }
  if (actor.role !== "admin" || !actor.tenantSlug) {
    throw new NotFound("File");
  }
  const tenant = await findTenantBySlug(db(ctx.env), actor.tenantSlug);
  if (tenant?.status !== "active") {
    throw new NotFound("File");
  }
  const ticket = file.ticketId ? await loadTicket(ctx.env, file.ticketId) : undefined;
  const owned = ticket
    ? ticket.tenantId === tenant.id
    : file.scope === "tenant" && file.tenantId === tenant.id;
  if (!owned) {
    throw new NotFound("File");
  }
  return objectResponse(ctx.env, file);
}

/** The login-free page sees the files of the ticket its token opens, and nothing else. */
export async function servePublicFile({
  ctx,
  token,
  id,
}: {
  ctx: PlatformCtx;
  token: string;
  id: string;
}): Promise<Response> {
  await supportRateLimit(ctx.env, [{ policy: "support-public-read:ip", subject: ctx.ip }]);
  const ticket = await findTicketByToken(ctx.env, token);
  const file = await fileRow(ctx.env, id);
  if (file.ticketId !== ticket.id) {
    throw new NotFound("File");
  }
  return objectResponse(ctx.env, file);
}
