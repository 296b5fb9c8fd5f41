import { and, desc, eq, inArray, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { afterCursor, keysetPage, type ListQuery } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { tenantFiles } from "../../core/db/tenant-schema";
import { Forbidden, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { toMsisdn } from "../../core/phone";
import { presentTenantFile } from "../../platform/uploads";
import { userContacts } from "../identity/service";
import type { ListingListQuery } from "./schemas";
import { pasarListings, pasarPhotos } from "./tables";

/** Listings read: who sees which, and how a listing is shown (with its seller's WhatsApp link). */

export type ListingRow = typeof pasarListings.$inferSelect;
export type Category = ListingRow["category"];
export type Condition = NonNullable<ListingRow["condition"]>;

/** Who moderates the market: the secretariat, as in the route table. */
export const isModerator = (ctx: TenantCtx) => hasRole(ctx, ROLES.SECRETARIAT);

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

/** The photos of the listings `listingIds` names (ids, or a subquery of them) with their files, in order. */
function photosQuery(ctx: TenantCtx, listingIds: string[] | SQLWrapper) {
  return ctx.db
    .select({ listingId: pasarPhotos.listingId, file: tenantFiles })
    .from(pasarPhotos)
    .innerJoin(tenantFiles, eq(tenantFiles.id, pasarPhotos.fileId))
    .where(inArray(pasarPhotos.listingId, listingIds))
    .orderBy(pasarPhotos.listingId, pasarPhotos.position);
}
type PhotoRow = Awaited<ReturnType<typeof photosQuery>>[number];

/**
 * A page of listings newest first and their photos, in one round trip: the photos are read by a
 * subquery of the same page, so the two ride one batch (and the slot owner check with them).
 */
async function pageWithPhotos(ctx: TenantCtx, where: SQL | undefined, limit: number) {
  const ids = ctx.db
    .select({ id: pasarListings.id })
    .from(pasarListings)
    .where(where)
    .orderBy(desc(pasarListings.id))
    .limit(limit + 1);
  const [rows, photos] = await ctx.db.batch([
    ctx.db
      .select()
      .from(pasarListings)
      .where(where)
      .orderBy(desc(pasarListings.id))
      .limit(limit + 1),
    photosQuery(ctx, ids),
  ]);
  const paged = keysetPage(rows, limit);
  return { items: await present(ctx, paged.items, { photos }), nextCursor: paged.nextCursor };
}

export async function present(
  ctx: TenantCtx,
  rows: ListingRow[],
  opts: { whatsapp?: boolean; photos?: PhotoRow[] } = {},
): Promise<Record<string, unknown>[]> {
  const ids = rows.map((r) => r.id);
  // The photos with their files in one statement (unless the page's batch read them), beside the
  // sellers (names, and the number a detail links to) in one more.
  const [photos, sellers] = await Promise.all([
    opts.photos ?? (ids.length ? photosQuery(ctx, ids) : []),
    userContacts({ ctx, ids: rows.map((r) => r.sellerId) }),
  ]);
  const me = requireUser(ctx).userId;
  return rows.map((row) => {
    const seller = sellers.get(row.sellerId);
    const sellerName = seller?.name ?? null;
    const contact = opts.whatsapp && row.status === "aktif" && row.sellerId !== me ? (seller ?? null) : null;
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
        .map((p) => {
          const file = presentTenantFile(ctx, p.file);
          return { id: file.id, url: file.url, contentType: file.contentType };
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
  });
}

export async function presentOne(ctx: TenantCtx, row: ListingRow) {
  const [one] = await present(ctx, [row], { whatsapp: true });
  return one;
}

/**
 * Fetch-or-404 for readers: active and sold listings are every member's; a hidden one only its
 * seller's (who sees why) and the moderators'.
 */
export async function loadVisible(ctx: TenantCtx, id: string): Promise<ListingRow> {
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
export async function loadOwn(ctx: TenantCtx, id: string): Promise<ListingRow> {
  const row = await rowById(ctx.db, pasarListings, id);
  if (!row || row.sellerId !== requireUser(ctx).userId) {
    throw new NotFound("Listing", "listing_not_found");
  }
  return row;
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
  return pageWithPhotos(ctx, and(...filters), input.limit);
}

/** The seller's own listings, every status, with the moderation reason on hidden ones. */
export async function listMyListings({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  return pageWithPhotos(
    ctx,
    and(
      eq(pasarListings.sellerId, requireUser(ctx).userId),
      ...afterCursor(pasarListings.id, input.cursor, "desc"),
    ),
    input.limit,
  );
}

export function countActiveListings(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(pasarListings, eq(pasarListings.status, "aktif"));
}
