import { and, eq, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { rowById } from "../../core/db/rows";
import { InvalidTransition, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { log } from "../../core/http/log";
import { nowIso } from "../../core/time";
import { notifyFor } from "../../platform/notify";
import { type ListingRow, presentOne } from "./listings";
import type { ModerationInput } from "./schemas";
import { pasarListings } from "./tables";

/** Moderation: a moderator hides or restores a listing, and its seller is told. */

/** A moderator's moves from each state: hide a shown or sold listing, restore a hidden one. */
const MODERATION_NEXT: Record<ListingRow["status"], ListingRow["status"][]> = {
  aktif: ["disembunyikan"],
  terjual: ["disembunyikan"],
  disembunyikan: ["aktif"],
};

/** Tells the seller by push; the moderation is already stored, so a failure is logged, not thrown. */
async function pushModeration(ctx: TenantCtx, row: ListingRow, at: string): Promise<void> {
  const hidden = row.status === "disembunyikan";
  try {
    await notifyFor(ctx.env).sendPush({
      userIds: [row.sellerId],
      tenant: ctx.tenant.slug,
      title: hidden ? "Iklan Anda disembunyikan" : "Iklan Anda tampil kembali",
      body: `"${row.title}": ${row.moderationReason ?? ""}`.slice(0, 240),
      data: { screen: "pasar", id: row.id },
      idempotencyKey: `pasar-moderasi:${ctx.tenant.slug}:${row.id}:${at}`,
    });
  } catch (error) {
    log("warn", "pasar_moderation_push_failed", {
      requestId: ctx.requestId,
      listing: row.id,
      error: String(error),
    });
  }
}

/** Hide (`disembunyikan`) or restore (`aktif`) a listing, with the reason its seller will read. */
export async function moderateListing({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: ModerationInput;
}) {
  const current = await rowById(ctx.db, pasarListings, id);
  if (!current) {
    throw new NotFound("Listing", "listing_not_found");
  }
  const hiding = input.status === "disembunyikan";
  if (!MODERATION_NEXT[current.status].includes(input.status)) {
    throw new InvalidTransition(
      hiding ? "This listing is already hidden." : "Only a hidden listing can be restored.",
      MODERATION_NEXT[current.status],
    );
  }
  const at = nowIso(ctx);
  const change = {
    status: input.status,
    moderationReason: input.reason,
    moderatedBy: requireUser(ctx).userId,
    moderatedAt: at,
    updatedAt: at,
  } as const;
  const from = current.status;
  try {
    await ctx.db.batch([
      ctx.db
        .update(pasarListings)
        .set(change)
        .where(and(eq(pasarListings.id, id), eq(pasarListings.status, from))),
      abortBatchUnless(ctx.db, pasarListings, id, sql`${pasarListings.moderatedAt} = ${at}`),
      audit(ctx, {
        action: hiding ? "pasar.listing.hide" : "pasar.listing.restore",
        targetType: "pasar_listing",
        targetId: id,
        detail: { from, reason: input.reason },
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      const fresh = await rowById(ctx.db, pasarListings, id);
      throw new InvalidTransition(
        "The listing changed meanwhile; reload it.",
        fresh ? MODERATION_NEXT[fresh.status] : [],
      );
    }
    throw error;
  }
  const row = { ...current, ...change };
  await pushModeration(ctx, row, at);
  return presentOne(ctx, row);
}
