import { and, asc, eq, gt, gte, isNull, lt, ne, or, type SQL, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterKeyset, jakartaDayFilters, type Keyset, keysetPageBy } from "../../core/db/paging";
import { rowByIdOrNotFound } from "../../core/db/rows";
import { Conflict, Invalid } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { DAY_MS, jakartaDay, jakartaDayStart, toJakartaIso } from "../../core/time";
import { audienceOf, fanOut } from "./fanout";
import type { AgendaListQuery, CreateAgendaInput, UpdateAgendaInput } from "./schemas";
import { agenda } from "./tables";

type Row = typeof agenda.$inferSelect;

const iso = (value: string) => new Date(value).toISOString();

function present(row: Row) {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    place: row.place,
    start: toJakartaIso(row.startsAt),
    end: toJakartaIso(row.endsAt),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function load(ctx: TenantCtx, id: string): Promise<Row> {
  return rowByIdOrNotFound(ctx.db, agenda, id, "Agenda");
}

export async function createAgenda({ ctx, input }: { ctx: TenantCtx; input: CreateAgendaInput }) {
  const now = ctx.now().toISOString();
  const id = newId();
  const [[row]] = await ctx.db.batch([
    ctx.db
      .insert(agenda)
      .values({
        id,
        title: input.title,
        description: input.description,
        place: input.place,
        startsAt: iso(input.start),
        endsAt: iso(input.end),
        authorId: requireUser(ctx).userId,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
    audit(ctx, { action: "agenda.create", targetType: "agenda", targetId: id }),
  ]);
  return present(row as Row);
}

export async function getAgenda({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return present(await load(ctx, id));
}

/**
 * Soonest first. Without `from`/`to` only what has not ended yet; with them, events starting on those
 * Jakarta days. The cursor is the last event's `{starts_at}~{id}`.
 */
/** Soonest first, then by id; the cursor is the last event's `{starts_at}~{id}`. */
const AGENDA_ORDER: Keyset<typeof agenda.$inferSelect> = {
  columns: [agenda.startsAt, agenda.id],
  order: "asc",
  key: (row) => [row.startsAt, row.id],
};

export async function listAgenda({ ctx, input }: { ctx: TenantCtx; input: AgendaListQuery }) {
  const filters: SQL[] =
    input.from || input.to
      ? jakartaDayFilters(agenda.startsAt, input.from, input.to)
      : [gt(agenda.endsAt, ctx.now().toISOString())];
  const after = afterKeyset(AGENDA_ORDER, input.cursor);
  if (after) {
    filters.push(after);
  }
  const rows = await ctx.db
    .select()
    .from(agenda)
    .where(and(...filters))
    .orderBy(asc(agenda.startsAt), asc(agenda.id))
    .limit(input.limit + 1);
  const page = keysetPageBy(rows, input.limit, AGENDA_ORDER);
  return { items: page.items.map(present), nextCursor: page.nextCursor };
}

export async function updateAgenda({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: UpdateAgendaInput;
}) {
  const current = await load(ctx, id);
  const startsAt = input.start ? iso(input.start) : current.startsAt;
  const endsAt = input.end ? iso(input.end) : current.endsAt;
  if (endsAt <= startsAt) {
    throw new Invalid("invalid_window", "The end must be after the start.", [
      { field: "end", message: "before start" },
    ]);
  }
  const now = ctx.now().toISOString();
  try {
    const [[row]] = await ctx.db.batch([
      ctx.db
        .update(agenda)
        .set({
          title: input.title ?? current.title,
          description: input.description ?? current.description,
          place: input.place ?? current.place,
          startsAt,
          endsAt,
          updatedAt: now,
        })
        .where(and(eq(agenda.id, id), eq(agenda.updatedAt, current.updatedAt)))
        .returning(),
      abortBatchUnless(ctx.db, agenda, id, sql`changes() = 1`),
      audit(ctx, {
        action: "agenda.update",
        targetType: "agenda",
        targetId: id,
        detail: startsAt !== current.startsAt ? { movedFrom: current.startsAt, to: startsAt } : {},
      }),
    ]);
    return present(row as Row);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new Conflict("conflict", "This event changed meanwhile; reload it and try again.");
    }
    throw error;
  }
}

export async function deleteAgenda({ ctx, id }: { ctx: TenantCtx; id: string }) {
  await load(ctx, id);
  await ctx.db.batch([
    ctx.db.delete(agenda).where(eq(agenda.id, id)),
    audit(ctx, { action: "agenda.delete", targetType: "agenda", targetId: id }),
  ]);
}

/** From this Jakarta hour on, the next day's events get their reminder (18:00 WIB). */
export const REMINDER_HOUR = 18;

/**
 * The evening-before reminder, run hourly: from 18:00 WIB, every event starting on the next Jakarta
 * day whose reminder has not gone out for its current start is pushed to every member, once. An
 * event moved to another day is reminded again for its new start; the idempotency key names the
 * start, so a repeated run (or two overlapping ones) sends nothing twice.
 */
export async function remindTomorrow(ctx: TenantCtx, scheduledAt: Date) {
  const jakartaHour = new Date(scheduledAt.getTime() + 7 * 3_600_000).getUTCHours();
  if (jakartaHour < REMINDER_HOUR) {
    return { reminded: 0 };
  }
  const tomorrow = jakartaDayStart(jakartaDay(new Date(scheduledAt.getTime() + DAY_MS)));
  const due = await ctx.db
    .select()
    .from(agenda)
    .where(
      and(
        gte(agenda.startsAt, tomorrow.toISOString()),
        lt(agenda.startsAt, new Date(tomorrow.getTime() + DAY_MS).toISOString()),
        or(isNull(agenda.remindedFor), ne(agenda.remindedFor, agenda.startsAt)),
      ),
    )
    .orderBy(asc(agenda.startsAt))
    .limit(50);
  if (due.length === 0) {
    return { reminded: 0 };
  }
  const members = await audienceOf(ctx, null);
  let reminded = 0;
  for (const event of due) {
    const time = toJakartaIso(event.startsAt).slice(11, 16);
    const sent = await fanOut(ctx, members, {
      reference: `${ctx.tenant.id}:agenda:${event.id}:${event.startsAt}`,
      urgent: false,
      push: {
        title: `Besok: ${event.title}`,
        body: `Pukul ${time} WIB di ${event.place}.`,
        data: { screen: "agenda", id: event.id },
      },
    });
    if (sent) {
      await ctx.db
        .update(agenda)
        .set({ remindedFor: event.startsAt })
        .where(and(eq(agenda.id, event.id), eq(agenda.startsAt, event.startsAt)));
      reminded++;
    }
  }
  return { reminded };
}
