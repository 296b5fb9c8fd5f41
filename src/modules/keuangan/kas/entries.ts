import { and, asc, eq, gte, lte } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { audit } from "../../../core/audit";
import type { TenantCtx } from "../../../core/context";
import { isUniqueViolation } from "../../../core/db/errors";
import { afterKeyset, type Keyset, keysetPageBy } from "../../../core/db/paging";
import { rowByIdOrNotFound } from "../../../core/db/rows";
import { Conflict, Invalid } from "../../../core/errors";
import { requireUser } from "../../../core/http/access";
import { newId } from "../../../core/ids";
import { type Clock, jakartaDay } from "../../../core/time";
import { requireTenantFile, tenantFileUrl } from "../../../platform/uploads";
import { cashEntries } from "../tables";
import { balanceOfAll, balanceUpTo, entriesNet, refreshCashMonth, sumOf } from "./bulanan";
import type { CashEntryInput, CashListQuery } from "./schemas";

type CashRow = typeof cashEntries.$inferSelect;
export type CashSource = CashRow["source"];

/** What moves money: a payment, a confirmed donation, an approved expense, a manual entry, a correction. */
export interface Posting {
  kind: "masuk" | "keluar";
  category: string;
  amount: number;
  date: string;
  note: string;
  source: CashSource;
  sourceId?: string | null;
  reversesId?: string | null;
  attachmentFileId?: string | null;
}

/**
 * The one way into the cash book. It returns the entry's id and its writes (the INSERT, then the
 * rewrite of its month's kept total, ADR 0028), which the caller puts in the very batch that records
 * the payment, donation or expense, so neither is ever seen without the other and the month totals
 * never without the entry. Nothing updates or deletes a cash entry.
 */
export function postCash(
  ctx: TenantCtx,
  posting: Posting,
): { id: string; writes: [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] } {
  if (!Number.isSafeInteger(posting.amount) || posting.amount <= 0) {
    throw new Error(`a posting needs a positive integer amount, got ${posting.amount}`);
  }
  const id = newId();
  const createdBy = ctx.actor.kind === "user" ? ctx.actor.userId : null;
  const insert = ctx.db.insert(cashEntries).values({
    id,
    kind: posting.kind,
    category: posting.category,
    amount: posting.amount,
    date: posting.date,
    note: posting.note,
    source: posting.source,
    sourceId: posting.sourceId ?? null,
    reversesId: posting.reversesId ?? null,
    attachmentFileId: posting.attachmentFileId ?? null,
    createdBy,
  });
  return { id, writes: [insert, ...refreshCashMonth(ctx.db, posting)] };
}

export function presentEntry(ctx: TenantCtx, row: CashRow) {
  return {
    id: row.id,
    kind: row.kind,
    category: row.category,
    amount: row.amount,
    date: row.date,
    note: row.note,
    source: row.source,
    sourceId: row.sourceId,
    reversesId: row.reversesId,
    attachmentUrl: row.attachmentFileId ? tenantFileUrl(ctx, row.attachmentFileId) : null,
    createdAt: row.createdAt,
  };
}

/** The Jakarta calendar day on the context's clock. */
export function todayJakarta(clock: Clock): string {
  return jakartaDay(clock.now());
}

function notInFuture(clock: Clock, date: string, field = "date") {
  if (date > todayJakarta(clock)) {
    throw new Invalid("invalid_date", `${field} must not be in the future.`, [
      { field, message: "in the future" },
    ]);
  }
}

export async function createCashEntry({ ctx, input }: { ctx: TenantCtx; input: CashEntryInput }) {
  notInFuture(ctx, input.date);
  if (input.attachmentFileId) {
    await requireTenantFile(ctx, input.attachmentFileId, {
      purposes: ["lampiran_kas"],
      field: "attachmentFileId",
    });
  }
  const { id, writes } = postCash(ctx, { ...input, source: "manual" });
  await ctx.db.batch([
    ...writes,
    audit(ctx, {
      action: "kas.create",
      targetType: "cash_entry",
      targetId: id,
      detail: { kind: input.kind, category: input.category, amount: input.amount, date: input.date },
    }),
  ]);
  return presentEntry(ctx, await loadEntry(ctx, id));
}

async function loadEntry(ctx: TenantCtx, id: string): Promise<CashRow> {
  return rowByIdOrNotFound(ctx.db, cashEntries, id, "Cash entry");
}

/**
 * A correction is the opposite entry, dated today, linked to the original. Only manual entries are
 * corrected here: an automatic one belongs to its payment, donation or expense, whose own record would
 * otherwise disagree with the book. The unique `reverses_id` lets one of two concurrent corrections in.
 */
export async function correctCashEntry({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: { reason: string };
}) {
  requireUser(ctx);
  const original = await loadEntry(ctx, id);
  if (original.source !== "manual") {
    throw new Conflict(
      "not_correctable",
      original.source === "koreksi"
        ? "A correction cannot itself be corrected; post a new entry instead."
        : original.source === "iuran"
          ? "This entry was posted by a dues payment; reverse the payment (POST /api/iuran/pembayaran/:id/pembatalan)."
          : `This entry was posted by ${original.source}; it is corrected there, not in the cash book.`,
    );
  }
  const reversal = postCash(ctx, {
    kind: original.kind === "masuk" ? "keluar" : "masuk",
    category: original.category,
    amount: original.amount,
    date: todayJakarta(ctx),
    note: `Koreksi: ${input.reason}`,
    source: "koreksi",
    sourceId: original.id,
    reversesId: original.id,
  });
  try {
    await ctx.db.batch([
      ...reversal.writes,
      audit(ctx, {
        action: "kas.correct",
        targetType: "cash_entry",
        targetId: original.id,
        detail: { reversalId: reversal.id, reason: input.reason },
      }),
    ]);
  } catch (error) {
    if (isUniqueViolation(error, "cash_entries.reverses_id")) {
      throw new Conflict("already_corrected", "This entry has already been corrected.");
    }
    throw error;
  }
  return presentEntry(ctx, await loadEntry(ctx, reversal.id));
}

/** The cash book runs in (date, id) order; its cursor is the last entry's `{date}~{id}`. */
const CASH_ORDER: Keyset<typeof cashEntries.$inferSelect> = {
  columns: [cashEntries.date, cashEntries.id],
  order: "asc",
  key: (row) => [row.date, row.id],
};

/**
 * The cash book page with its running balance. Every balance is the kept month totals before its day
 * plus that month's own entries (bulanan.ts), so a page costs the same at any depth of history:
 * the opening balance is the balance before `from`, the closing one the balance up to `to` (all of it
 * without), and the page's first balance the balance up to the cursor's day, plus the cursor day's
 * own entries up to the cursor's id.
 */
export async function listCash({ ctx, input }: { ctx: TenantCtx; input: CashListQuery }) {
  if (input.from && input.to && input.from > input.to) {
    throw new Invalid("invalid_range", "from must not be after to.", [
      { field: "from", message: "after to" },
    ]);
  }
  const category = input.category;
  const byCategory = category ? [eq(cashEntries.category, category)] : [];
  const inRange = [
    ...byCategory,
    ...(input.from ? [gte(cashEntries.date, input.from)] : []),
    ...(input.to ? [lte(cashEntries.date, input.to)] : []),
  ];
  const afterCursor = afterKeyset(CASH_ORDER, input.cursor);
  const cursor = cursorDay(input.cursor, input.from, input.to);
  const db = ctx.db;
  const opening = input.from ? balanceUpTo(db, input.from, { category }) : [];
  const closing = input.to
    ? balanceUpTo(db, input.to, { inclusive: true, category })
    : [balanceOfAll(db, category)];
  const upToCursor = cursor
    ? [
        ...balanceUpTo(db, cursor.day, { category }),
        db
          .select({ total: entriesNet })
          .from(cashEntries)
          .where(and(...byCategory, eq(cashEntries.date, cursor.day), lte(cashEntries.id, cursor.id))),
      ]
    : [];
  const results = (await db.batch([
    db
      .select()
      .from(cashEntries)
      .where(and(...inRange, afterCursor))
      .orderBy(asc(cashEntries.date), asc(cashEntries.id))
      .limit(input.limit + 1),
    ...opening,
    ...closing,
    ...upToCursor,
  ] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as unknown[];
  const rows = results[0] as CashRow[];
  const afterOpening = 1 + opening.length;
  const afterClosing = afterOpening + closing.length;
  const openingBalance = sumOf(...results.slice(1, afterOpening));
  const closingBalance = sumOf(...results.slice(afterOpening, afterClosing));
  let balance = cursor ? sumOf(...results.slice(afterClosing)) : openingBalance;
  const page = keysetPageBy(rows, input.limit, CASH_ORDER);
  const items = page.items.map((row) => {
    balance += row.kind === "masuk" ? row.amount : -row.amount;
    return { ...presentEntry(ctx, row), balance };
  });
  return { openingBalance, closingBalance, items, nextCursor: page.nextCursor };
}

/**
 * The cursor's day and id when the page starts inside the range (null without a cursor). A cursor
 * before `from` starts at the opening balance like no cursor; one after `to` leaves an empty page.
 */
function cursorDay(cursor: string | undefined, from?: string, to?: string) {
  if (!cursor) {
    return null;
  }
  const [day = "", id = ""] = cursor.split("~");
  if (from && day < from) {
    return null;
  }
  return { day: to && day > to ? to : day, id: to && day > to ? "\uffff" : id };
}
