import { and, desc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted, isUniqueViolation } from "../../core/db/errors";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, Forbidden, Invalid, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { log } from "../../core/http/log";
import { newId } from "../../core/ids";
import { notifyFor } from "../../core/notifier";
import { toMsisdn } from "../../core/phone";
import { nowIso } from "../../core/time";
import { planTenantFileDeletion, requireTenantFile, tenantFilesByIds } from "../../core/uploads";
import { userContact, userNames } from "../identity/service";
import { pasarRateLimit } from "./limits";
import type { CreateListingInput, ListingListQuery, ModerationInput, UpdateListingInput } from "./schemas";
import { pasarListings, pasarPhotos } from "./tables";

type ListingRow = typeof pasarListings.$inferSelect;
type Category = ListingRow["category"];
type Condition = NonNullable<ListingRow["condition"]>;

/** Who moderates the market: the secretariat, as in the route table. */
const isModerator = (ctx: TenantCtx) => hasRole(ctx, ROLES.SECRETARIAT);

/** `https://wa.me/62…?text=…`: the buyer's chat opens with the listing named, on the seller's number. */
export function whatsappLink(
  number: string | null,
  message: { sellerName: string; title: string; tenantName: string },
): string | null {
  const msisdn = number ? toMsisdn(number) : null;
  if (!msisdn) {
    return null;
  }
  const text = `Halo ${message.sellerName}, saya tertarik dengan "${message.title}" di Pasar ${message.tenantName}. Apakah masih tersedia?`;
  return `https://wa.me/${msisdn}?text=${encodeURIComponent(text)}`;
}

async function present(
  ctx: TenantCtx,
  rows: ListingRow[],
  opts: { whatsapp?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const ids = rows.map((r) => r.id);
  const photos = ids.length
    ? await ctx.db
        .select()
        .from(pasarPhotos)
        .where(inArray(pasarPhotos.listingId, ids))
        .orderBy(pasarPhotos.listingId, pasarPhotos.position)
    : [];
  const [files, names] = await Promise.all([
    tenantFilesByIds(
      ctx,
      photos.map((p) => p.fileId),
    ),
    userNames({ ctx, ids: rows.map((r) => r.sellerId) }),
  ]);
  const me = requireUser(ctx).userId;
  return Promise.all(
    rows.map(async (row) => {
      const sellerName = names.get(row.sellerId) ?? null;
      const contact =
        opts.whatsapp && row.status === "aktif" && row.sellerId !== me
          ? await userContact({ ctx, id: row.sellerId })
          : null;
      const showModeration = row.moderatedAt !== null && (row.sellerId === me || isModerator(ctx));
      return {
        id: row.id,
        sellerId: row.sellerId,
        sellerName,
        title: row.title,
        description: row.description,
        price: row.price ?? "nego",
        category: row.category,
        condition: row.condition,
        status: row.status,
        photos: photos
          .filter((p) => p.listingId === row.id)
          .flatMap((p) => {
            const file = files.get(p.fileId);
            return file ? [{ id: file.id, url: file.url, contentType: file.contentType }] : [];
          }),
        ...(opts.whatsapp
          ? {
              whatsappUrl: whatsappLink(contact?.whatsapp ?? null, {
                sellerName: sellerName ?? "Kak",
                title: row.title,
                tenantName: ctx.tenant.name,
              }),
            }
          : {}),
        moderation:
          showModeration && row.moderationReason && row.moderatedAt
            ? { reason: row.moderationReason, at: row.moderatedAt }
            : null,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
      };
    }),
  );
}

async function presentOne(ctx: TenantCtx, row: ListingRow) {
  const [one] = await present(ctx, [row], { whatsapp: true });
  return one;
}

/**
 * Fetch-or-404 for readers: active and sold listings are every member's; a hidden one only its
 * seller's (who sees why) and the moderators'.
 */
async function loadVisible(ctx: TenantCtx, id: string): Promise<ListingRow> {
  const row = await rowById(ctx.db, pasarListings, id);
  if (
    !row ||
    (row.status === "disembunyikan" && row.sellerId !== requireUser(ctx).userId && !isModerator(ctx))
  ) {
    throw new NotFound("Listing", "listing_not_found");
  }
  return row;
}

/** Fetch-or-404 for the seller's own changes: anyone else's listing does not exist for them. */
async function loadOwn(ctx: TenantCtx, id: string): Promise<ListingRow> {
  const row = await rowById(ctx.db, pasarListings, id);
  if (!row || row.sellerId !== requireUser(ctx).userId) {
    throw new NotFound("Listing", "listing_not_found");
  }
  return row;
}

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
  const now = nowIso();
  const row: ListingRow = {
    id: newId(),
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
    updatedAt: nowIso(),
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

export async function getListing({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return presentOne(ctx, await loadVisible(ctx, id));
}

/** The market: active listings, newest first; moderators may ask for another status (hidden ones). */
export async function listListings({ ctx, input }: { ctx: TenantCtx; input: ListingListQuery }) {
  if (input.status && input.status !== "aktif" && !isModerator(ctx)) {
    throw new Forbidden("forbidden_role", "Only the pengurus may list listings that are not active.");
  }
  const q = input.q?.toLowerCase();
  const filters: SQL[] = [
    eq(pasarListings.status, input.status ?? "aktif"),
    ...(input.category ? [eq(pasarListings.category, input.category)] : []),
    ...afterCursor(pasarListings.id, input.cursor, "desc"),
  ];
  if (q) {
    // instr, not LIKE: the search text's % and _ mean themselves.
    const match = or(
      sql`instr(lower(${pasarListings.title}), ${q}) > 0`,
      sql`instr(lower(${pasarListings.description}), ${q}) > 0`,
    );
    if (match) {
      filters.push(match);
    }
  }
  const rows = await ctx.db
    .select()
    .from(pasarListings)
    .where(and(...filters))
    .orderBy(desc(pasarListings.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return { items: await present(ctx, page.items), nextCursor: page.nextCursor };
}

/** The seller's own listings, every status, with the moderation reason on hidden ones. */
export async function listMyListings({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const rows = await ctx.db
    .select()
    .from(pasarListings)
    .where(
      and(
        eq(pasarListings.sellerId, requireUser(ctx).userId),
        ...afterCursor(pasarListings.id, input.cursor, "desc"),
      ),
    )
    .orderBy(desc(pasarListings.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return { items: await present(ctx, page.items), nextCursor: page.nextCursor };
}

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
  if (hiding === (current.status === "disembunyikan")) {
    throw new Conflict(
      "invalid_transition",
      hiding ? "This listing is already hidden." : "Only a hidden listing can be restored.",
    );
  }
  const at = nowIso();
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
      throw new Conflict("invalid_transition", "The listing changed meanwhile; reload it.");
    }
    throw error;
  }
  const row = { ...current, ...change };
  await pushModeration(ctx, row, at);
  return presentOne(ctx, row);
}

export function countActiveListings(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(pasarListings, eq(pasarListings.status, "aktif"));
}
