import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted, isUniqueViolation } from "../../core/db/errors";
import { Conflict, Invalid } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { toMsisdn } from "../../core/phone";
import { nowIso } from "../../core/time";
import { planTenantFileDeletion, requireTenantFile } from "../../platform/uploads";
import { userContact } from "../identity/service";
import { pasarRateLimit } from "./limits";
import { type Category, type Condition, type ListingRow, loadOwn, presentOne } from "./listings";
import type { CreateListingInput, UpdateListingInput } from "./schemas";
import { pasarListings, pasarPhotos } from "./tables";

/** Listings written by their seller: created with photos, changed, deleted. */

/** Services have no condition; goods say whether they are new or used (used goods cannot be `baru`). */
function conditionFor(category: Category, condition: Condition | null | undefined): Condition | null {
  if (category === "jasa") {
    if (condition) {
      throw new Invalid("invalid_input", "A service has no condition.", [
        { field: "condition", message: "leave it out for jasa" },
      ]);
    }
    return null;
  }
  if (category === "barang_bekas" && condition === "baru") {
    throw new Invalid("invalid_input", "Second-hand goods are bekas.", [
      { field: "condition", message: "barang_bekas is bekas" },
    ]);
  }
  if (!condition) {
    if (category === "barang_bekas") {
      return "bekas";
    }
    throw new Invalid("invalid_input", "Say whether the goods are baru or bekas.", [
      { field: "condition", message: "required for goods" },
    ]);
  }
  return condition;
}

/** Each photo is the seller's own upload for the market, and not on another listing already. */
async function checkPhotos(ctx: TenantCtx, ids: readonly string[], listingId: string | null): Promise<void> {
  const sellerId = requireUser(ctx).userId;
  for (const [i, id] of ids.entries()) {
    await requireTenantFile(ctx, id, { purposes: ["pasar"], ownedBy: sellerId, field: `photoIds.${i}` });
  }
  if (ids.length === 0) {
    return;
  }
  const taken = await ctx.db
    .select({ fileId: pasarPhotos.fileId, listingId: pasarPhotos.listingId })
    .from(pasarPhotos)
    .where(inArray(pasarPhotos.fileId, [...ids]));
  if (taken.some((t) => t.listingId !== listingId)) {
    throw new Conflict("file_in_use", "A photo is already on another of your listings; upload it again.");
  }
}

const photoRows = (listingId: string, ids: readonly string[]) =>
  ids.map((fileId, position) => ({ fileId, listingId, position }));

export async function createListing({ ctx, input }: { ctx: TenantCtx; input: CreateListingInput }) {
  const sellerId = requireUser(ctx).userId;
  const contact = await userContact({ ctx, id: sellerId });
  if (!contact?.whatsapp || !toMsisdn(contact.whatsapp)) {
    throw new Conflict(
      "no_contact",
      "Add your WhatsApp number to your profile first: buyers reach you there.",
    );
  }
  const condition = conditionFor(input.category, input.condition);
  const photoIds = input.photoIds ?? [];
  await checkPhotos(ctx, photoIds, null);
  await pasarRateLimit(ctx.env, [{ policy: "pasar-create:user", subject: sellerId }]);
  const now = nowIso(ctx);
  const row: ListingRow = {
    id: newId(),
    rowVersion: 1,
    sellerId,
    title: input.title,
    description: input.description,
    price: input.price === "nego" ? null : input.price,
    category: input.category,
    condition,
    status: "aktif",
    moderationReason: null,
    moderatedBy: null,
    moderatedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const photos = photoRows(row.id, photoIds);
  try {
    await ctx.db.batch([
      ctx.db.insert(pasarListings).values(row),
      ...(photos.length ? [ctx.db.insert(pasarPhotos).values(photos)] : []),
    ]);
  } catch (error) {
    if (isUniqueViolation(error, "pasar_photos.file_id")) {
      throw new Conflict("file_in_use", "A photo was just put on another listing; upload it again.");
    }
    throw error;
  }
  return presentOne(ctx, row);
}

export async function updateListing({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: UpdateListingInput;
}) {
  const current = await loadOwn(ctx, id);
  if (input.status && current.status === "disembunyikan") {
    throw new Conflict("listing_hidden", "This listing was hidden by the pengurus; see the reason on it.");
  }
  const category = input.category ?? current.category;
  const condition =
    input.category !== undefined || input.condition !== undefined
      ? conditionFor(category, input.condition === undefined ? current.condition : input.condition)
      : current.condition;
  const change: Partial<ListingRow> = {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.description !== undefined ? { description: input.description } : {}),
    ...(input.price !== undefined ? { price: input.price === "nego" ? null : input.price } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    category,
    condition,
    updatedAt: nowIso(ctx),
  };
  const statements: BatchItem<"sqlite">[] = [
    // Only while still not hidden, when the seller flips the status: a moderator may hide it meanwhile.
    ctx.db
      .update(pasarListings)
      .set(change)
      .where(
        and(
          eq(pasarListings.id, id),
          ...(input.status ? [sql`${pasarListings.status} <> 'disembunyikan'`] : []),
        ),
      ),
  ];
  let purge = async () => {};
  if (input.photoIds) {
    await checkPhotos(ctx, input.photoIds, id);
    const before = (
      await ctx.db
        .select({ fileId: pasarPhotos.fileId })
        .from(pasarPhotos)
        .where(eq(pasarPhotos.listingId, id))
    ).map((p) => p.fileId);
    const dropped = before.filter((f) => !input.photoIds?.includes(f));
    const files = await planTenantFileDeletion(ctx, dropped);
    purge = files.purge;
    statements.push(
      ctx.db.delete(pasarPhotos).where(eq(pasarPhotos.listingId, id)),
      ...(input.photoIds.length ? [ctx.db.insert(pasarPhotos).values(photoRows(id, input.photoIds))] : []),
      files.statement,
    );
  }
  if (input.status) {
    statements.push(
      abortBatchUnless(ctx.db, pasarListings, id, sql`${pasarListings.status} <> 'disembunyikan'`),
    );
  }
  try {
    await ctx.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new Conflict("listing_hidden", "This listing was hidden by the pengurus; see the reason on it.");
    }
    if (isUniqueViolation(error, "pasar_photos.file_id")) {
      throw new Conflict("file_in_use", "A photo was just put on another listing; upload it again.");
    }
    throw error;
  }
  await purge();
  return presentOne(ctx, await loadOwn(ctx, id));
}

export async function deleteListing({ ctx, id }: { ctx: TenantCtx; id: string }) {
  await loadOwn(ctx, id);
  const photoIds = (
    await ctx.db.select({ fileId: pasarPhotos.fileId }).from(pasarPhotos).where(eq(pasarPhotos.listingId, id))
  ).map((p) => p.fileId);
  const files = await planTenantFileDeletion(ctx, photoIds);
  await ctx.db.batch([
    ctx.db.delete(pasarPhotos).where(eq(pasarPhotos.listingId, id)),
    files.statement,
    ctx.db.delete(pasarListings).where(eq(pasarListings.id, id)),
  ]);
  await files.purge();
}
