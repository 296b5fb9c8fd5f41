import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, jakartaDayFilters, keysetPage } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, Invalid, NotFound, Unavailable } from "../../core/errors";
import { escapeHtml } from "../../core/html";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { notifyFor } from "../../core/notifier";
import { NotifyUnavailable } from "../../core/notify";
import { listUnits } from "../kependudukan/service";
import { audienceOf, fanOut } from "./fanout";
import { plainExcerpt, renderMarkdown } from "./markdown";
import { nextPublication, owesFanout } from "./publishing";
import type {
  AudienceInput,
  CreatePengumumanInput,
  PengumumanListQuery,
  UpdatePengumumanInput,
} from "./schemas";
import { type Channels, pengumuman } from "./tables";

type Row = typeof pengumuman.$inferSelect;

const isWriter = (ctx: TenantCtx) => hasRole(ctx, ROLES.SECRETARIAT);

function present(row: Row) {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    bodyHtml: row.bodyHtml,
    urgent: row.urgent,
    channels: row.channels,
    audience: row.blocks ? { scope: "blok" as const, blocks: row.blocks } : { scope: "semua" as const },
    status: row.status,
    version: row.version,
    deliveryPending: owesFanout(row),
    publishedAt: row.publishedAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function load(ctx: TenantCtx, id: string): Promise<Row> {
  const row = await rowById(ctx.db, pengumuman, id);
  if (!row || (row.status !== "terbit" && !isWriter(ctx))) {
    throw new NotFound("Pengumuman");
  }
  return row;
}

/** The audience's blocks, each one known to the registry: a typo would otherwise reach nobody. */
async function blocksOf(ctx: TenantCtx, audience: AudienceInput): Promise<string[] | null> {
  if (audience.scope === "semua") {
    return null;
  }
  const blocks = [...new Set(audience.blocks)].sort();
  for (const block of blocks) {
    const { items } = await listUnits({ ctx, input: { block, limit: 1 } });
    if (items.length === 0) {
      throw new Invalid("unknown_block", `No house is registered in block ${block}.`, [
        { field: "audience.blocks", message: `unknown block ${block}` },
      ]);
    }
  }
  return blocks;
}

const reference = (ctx: TenantCtx, row: Pick<Row, "id" | "version">) =>
  `${ctx.tenant.id}:pengumuman:${row.id}:v${row.version}`;

function messageOf(ctx: TenantCtx, row: Row) {
  const channels: Channels = row.channels;
  const data = { screen: "pengumuman", id: row.id };
  const excerpt = plainExcerpt(row.body);
  const label = row.urgent ? "[PENTING] " : "";
  return {
    reference: reference(ctx, row),
    urgent: row.urgent,
    push: { title: `${label}${row.title}`, body: excerpt, data },
    ...(channels.whatsapp
      ? {
          whatsapp: {
            message: `*${label}${row.title}*\n${ctx.tenant.name}\n\n${plainExcerpt(row.body, 3500)}`,
          },
        }
      : {}),
    ...(channels.email
      ? {
          email: {
            subject: `[${ctx.tenant.name}] ${label}${row.title}`,
            html: `<h2>${escapeHtml(row.title)}</h2>${row.bodyHtml}`,
            text: `${row.title}\n\n${row.body}`,
          },
        }
      : {}),
  };
}

/** Fans a published version out to its audience on its channels, then records it as sent. */
async function notify(ctx: TenantCtx, row: Row): Promise<Row> {
  if (!owesFanout(row)) {
    return row;
  }
  const members = await audienceOf(ctx, row.blocks ?? null);
  if (!(await fanOut(ctx, members, messageOf(ctx, row)))) {
    return row;
  }
  await ctx.db
    .update(pengumuman)
    .set({ notifiedVersion: row.version })
    .where(and(eq(pengumuman.id, row.id), eq(pengumuman.version, row.version)));
  return { ...row, notifiedVersion: row.version };
}

export async function createPengumuman({ ctx, input }: { ctx: TenantCtx; input: CreatePengumumanInput }) {
  const blocks = await blocksOf(ctx, input.audience);
  const now = ctx.now().toISOString();
  const id = newId();
  const [[row]] = await ctx.db.batch([
    ctx.db
      .insert(pengumuman)
      .values({
        id,
        title: input.title,
        body: input.body,
        bodyHtml: renderMarkdown(input.body),
        urgent: input.urgent,
        channels: input.channels,
        blocks,
        status: input.status,
        authorId: requireUser(ctx).userId,
        publishedAt: input.status === "terbit" ? now : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
    audit(ctx, {
      action: "pengumuman.create",
      targetType: "pengumuman",
      targetId: id,
      detail: { status: input.status, urgent: input.urgent, channels: input.channels, blocks },
    }),
  ]);
  return present(await notify(ctx, row as Row));
}

export async function getPengumuman({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return present(await load(ctx, id));
}

export async function listPengumuman({ ctx, input }: { ctx: TenantCtx; input: PengumumanListQuery }) {
  const status = isWriter(ctx) ? input.status : "terbit";
  const filters: SQL[] = [
    ...afterCursor(pengumuman.id, input.cursor, "desc"),
    ...(status ? [eq(pengumuman.status, status)] : []),
    ...jakartaDayFilters(pengumuman.createdAt, input.from, input.to),
  ];
  const rows = await ctx.db
    .select()
    .from(pengumuman)
    .where(and(...filters))
    .orderBy(desc(pengumuman.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return { items: page.items.map(present), nextCursor: page.nextCursor };
}

export async function updatePengumuman({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: UpdatePengumumanInput;
}) {
  const current = await load(ctx, id);
  const blocks = input.audience ? await blocksOf(ctx, input.audience) : (current.blocks ?? null);
  const fields = {
    title: input.title ?? current.title,
    body: input.body ?? current.body,
    urgent: input.urgent ?? current.urgent,
    channels: input.channels ?? current.channels,
    blocks,
  };
  const changed =
    fields.title !== current.title ||
    fields.body !== current.body ||
    fields.urgent !== current.urgent ||
    JSON.stringify(fields.channels) !== JSON.stringify(current.channels) ||
    JSON.stringify(fields.blocks) !== JSON.stringify(current.blocks ?? null);
  const now = ctx.now().toISOString();
  const next = nextPublication(current, input.status, changed, now);
  try {
    const [[row]] = await ctx.db.batch([
      ctx.db
        .update(pengumuman)
        .set({ ...fields, bodyHtml: renderMarkdown(fields.body), ...next, updatedAt: now })
        .where(and(eq(pengumuman.id, id), eq(pengumuman.updatedAt, current.updatedAt)))
        .returning(),
      abortBatchUnless(ctx.db, pengumuman, id, sql`changes() = 1`),
      audit(ctx, {
        action: "pengumuman.update",
        targetType: "pengumuman",
        targetId: id,
        detail: { from: current.status, to: next.status, version: next.version },
      }),
    ]);
    return present(await notify(ctx, row as Row));
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new Conflict("conflict", "This announcement changed meanwhile; reload it and try again.");
    }
    throw error;
  }
}

export async function deletePengumuman({ ctx, id }: { ctx: TenantCtx; id: string }) {
  await load(ctx, id);
  await ctx.db.batch([
    ctx.db.delete(pengumuman).where(eq(pengumuman.id, id)),
    audit(ctx, { action: "pengumuman.delete", targetType: "pengumuman", targetId: id }),
  ]);
}

/** What became of the latest sent version, per channel, from the notification service's delivery log. */
export async function deliveryOf({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await load(ctx, id);
  const version = row.notifiedVersion;
  const pending = owesFanout(row);
  if (version === null) {
    const empty = { total: 0, queued: 0, scheduled: 0, sent: 0, failed: 0, skipped: 0, skippedReasons: {} };
    return {
      id,
      version: null,
      deliveryPending: pending,
      channels: { push: empty, whatsapp: empty, email: empty },
    };
  }
  try {
    const summary = await notifyFor(ctx.env).deliverySummary(reference(ctx, { id, version }));
    return { id, version, deliveryPending: pending, channels: summary.channels };
  } catch (error) {
    if (error instanceof NotifyUnavailable) {
      throw new Unavailable("notification_unavailable", "The delivery log is unavailable; try again.");
    }
    throw error;
  }
}

/** Published announcements whose fan-out is still owed: retried by the hourly job. */
export async function retryOwedPengumuman(ctx: TenantCtx): Promise<number> {
  const owed = await ctx.db
    .select()
    .from(pengumuman)
    .where(
      and(eq(pengumuman.status, "terbit"), sql`${pengumuman.notifiedVersion} IS NOT ${pengumuman.version}`),
    )
    .limit(20);
  let sent = 0;
  for (const row of owed) {
    if ((await notify(ctx, row)).notifiedVersion === row.version) {
      sent++;
    }
  }
  return sent;
}
