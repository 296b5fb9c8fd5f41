import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { userNames } from "../identity/service";
import { aspirasiQuota } from "./limits";
import type { SuggestionListQuery } from "./schemas";
import { suggestions } from "./tables";

export async function createSuggestion({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { body: string; anonymous: boolean };
}) {
  // Counted against the sender even when anonymous: the quota's key is a hash, never stored with the note.
  await aspirasiQuota(ctx, "saran-create:member");
  const id = newId();
  const [row] = await ctx.db
    .insert(suggestions)
    .values({
      id,
      senderId: input.anonymous ? null : requireUser(ctx).userId,
      anonymous: input.anonymous,
      body: input.body,
    })
    .returning();
  if (!row) {
    throw new Error("insert returned no row");
  }
  // The receipt carries no sender either: nothing in the answer ties an anonymous note to its author.
  return { id: row.id, anonymous: row.anonymous, createdAt: row.createdAt };
}

function present(row: typeof suggestions.$inferSelect, names: Map<string, string>) {
  return {
    id: row.id,
    anonymous: row.anonymous,
    senderId: row.senderId,
    senderName: row.senderId ? (names.get(row.senderId) ?? null) : null,
    body: row.body,
    readAt: row.readAt,
    createdAt: row.createdAt,
  };
}

export async function listSuggestions({ ctx, input }: { ctx: TenantCtx; input: SuggestionListQuery }) {
  const rows = await ctx.db
    .select()
    .from(suggestions)
    .where(
      and(
        ...afterCursor(suggestions.id, input.cursor, "desc"),
        ...(input.unread === "true" ? [isNull(suggestions.readAt)] : []),
      ),
    )
    .orderBy(desc(suggestions.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  const names = await userNames({ ctx, ids: page.items.flatMap((r) => (r.senderId ? [r.senderId] : [])) });
  return { items: page.items.map((r) => present(r, names)), nextCursor: page.nextCursor };
}

/**
 * Marking read twice keeps the first reading, and only the reading that happened is audited: the
 * guard aborts the batch (update and record) when someone else marked it in between.
 */
export async function markSuggestionRead({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const load = () => rowById(ctx.db, suggestions, id);
  let current = await load();
  if (!current) {
    throw new NotFound("Suggestion");
  }
  if (!current.readAt) {
    try {
      await ctx.db.batch([
        ctx.db
          .update(suggestions)
          .set({ readAt: ctx.now().toISOString(), readBy: requireUser(ctx).userId })
          .where(and(eq(suggestions.id, id), isNull(suggestions.readAt))),
        abortBatchUnless(ctx.db, suggestions, id, sql`changes() = 1`),
        audit(ctx, { action: "saran.read", targetType: "suggestion", targetId: id }),
      ]);
    } catch (error) {
      if (!isBatchAborted(error)) {
        throw error;
      }
    }
    current = (await load()) ?? current;
  }
  const names = await userNames({ ctx, ids: current.senderId ? [current.senderId] : [] });
  return present(current, names);
}
