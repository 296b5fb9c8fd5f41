import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { Invalid, Unavailable } from "../../core/errors";
import { escapeHtml } from "../../core/html";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { NotifyUnavailable, notifyFor } from "../../platform/notify";
import { listUnits } from "../kependudukan/service";
import { audienceOf, fanOut } from "./fanout";
import { plainExcerpt, renderContent } from "./markdown";
import {
  deleteContent,
  fanOutOwed,
  listContent,
  loadContent,
  nextPublication,
  owesFanout,
  retryOwedContent,
  saveContent,
} from "./publishing";
import type {
  AudienceInput,
  CreatePengumumanInput,
  PengumumanListQuery,
  UpdatePengumumanInput,
} from "./schemas";
import { type Channels, pengumuman } from "./tables";

type Row = typeof pengumuman.$inferSelect;

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

const load = (ctx: TenantCtx, id: string) => loadContent(ctx, pengumuman, id, "Pengumuman");

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
function notify(ctx: TenantCtx, row: Row): Promise<Row> {
  return fanOutOwed(ctx, pengumuman, row, async (owed) =>
    fanOut(ctx, await audienceOf(ctx, owed.blocks ?? null), messageOf(ctx, owed)),
  );
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
        bodyHtml: await renderContent(ctx, input.body),
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
  const page = await listContent(ctx, pengumuman, input);
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
  const row = await saveContent(ctx, pengumuman, "pengumuman", current, {
    ...fields,
    bodyHtml: await renderContent(ctx, fields.body, input.body !== undefined),
    ...next,
    updatedAt: now,
  });
  return present(await notify(ctx, row));
}

export function deletePengumuman({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return deleteContent(ctx, pengumuman, "pengumuman", id);
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
export function retryOwedPengumuman(ctx: TenantCtx): Promise<number> {
  return retryOwedContent(ctx, pengumuman, (row) => notify(ctx, row));
}
