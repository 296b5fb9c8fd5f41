import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { rowVersion } from "../../core/db/row-version";

export const PASAR_CATEGORIES = ["makanan", "jasa", "barang_bekas", "kerajinan", "lainnya"] as const;
export const PASAR_CONDITIONS = ["baru", "bekas"] as const;
export const PASAR_STATUSES = ["aktif", "terjual", "disembunyikan"] as const;

/**
 * A resident's listing in the neighbourhood market. `price` is whole rupiah, or null for `nego`.
 * `disembunyikan` is set only by staff moderation, with the reason the seller sees.
 */
export const pasarListings = sqliteTable(
  "pasar_listings",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    sellerId: text("seller_id").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    price: integer("price"),
    category: text("category", { enum: PASAR_CATEGORIES }).notNull(),
    condition: text("condition", { enum: PASAR_CONDITIONS }),
    status: text("status", { enum: PASAR_STATUSES }).notNull(),
    /** The last moderation: why it was hidden (or restored), by whom, when. */
    moderationReason: text("moderation_reason"),
    moderatedBy: text("moderated_by"),
    moderatedAt: text("moderated_at"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("pasar_listings_status_idx").on(t.status, t.id),
    index("pasar_listings_category_idx").on(t.status, t.category, t.id),
    index("pasar_listings_seller_idx").on(t.sellerId, t.id),
  ],
);

/** A listing's photos, in order; a stored file (platform/uploads, purpose `pasar`) belongs to one listing. */
export const pasarPhotos = sqliteTable(
  "pasar_photos",
  {
    fileId: text("file_id").primaryKey(),
    listingId: text("listing_id").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [uniqueIndex("pasar_photos_listing_position_uq").on(t.listingId, t.position)],
);
