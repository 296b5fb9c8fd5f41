import { and, desc, eq, isNull, lt, type SQL } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { userNames } from "../identity/service";
import type { SuggestionListQuery } from "./schemas";
import { audit, page, userId } from "./shared";
import { suggestions } from "./tables";

export async function createSuggestion({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { body: string; anonymous: boolean };
}) {
  const id = newId();
  const [row] = await ctx.db
    .insert(suggestions)
    .values({
      id,
      senderId: input.anonymous ? null : userId(ctx),
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
  const filters: SQL[] = [];
  if (input.cursor) {
    filters.push(lt(suggestions.id, input.cursor));
  }
  if (input.unread === "true") {
    filters.push(isNull(suggestions.readAt));
  }
  const rows = await ctx.db
    .select()
    .from(suggestions)
    .where(and(...filters))
    .orderBy(desc(suggestions.id))
    .limit(input.limit + 1);
  const result = page(rows, input.limit);
  const names = await userNames(
    ctx.env,
    result.items.flatMap((r) => (r.senderId ? [r.senderId] : [])),
  );
  return { items: result.items.map((r) => present(r, names)), nextCursor: result.nextCursor };
}

/** Marking read twice keeps the first reading. */
export async function markSuggestionRead({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await ctx.db.select().from(suggestions).where(eq(suggestions.id, id)).get();
  if (!row) {
    throw new NotFound("Suggestion");
  }
  let current = row;
  if (!row.readAt) {
    const [updated] = await ctx.db
      .update(suggestions)
      .set({ readAt: new Date().toISOString(), readBy: userId(ctx) })
      .where(and(eq(suggestions.id, id), isNull(suggestions.readAt)))
      .returning();
    current = updated ?? row;
    await audit(ctx, "saran.read", "suggestion", id);
  }
  const names = await userNames(ctx.env, current.senderId ? [current.senderId] : []);
  return present(current, names);
}
