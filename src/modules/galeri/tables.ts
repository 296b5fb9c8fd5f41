import { sql } from "drizzle-orm";
import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { rowVersion } from "../../core/db/row-version";

/** A gallery album (kerja bakti, 17 Agustusan, …): the secretariat's, shown to every member. */
export const galleryAlbums = sqliteTable("gallery_albums", {
  id: text("id").primaryKey(),
  /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
  rowVersion: rowVersion(),
  title: text("title").notNull(),
  description: text("description"),
  /** The day of the event (YYYY-MM-DD, Jakarta), when the album is about one. */
  eventDate: text("event_date"),
  createdBy: text("created_by").notNull(),
  createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  updatedAt: text("updated_at").notNull(),
});

/**
 * A photo in an album. Its id is the id of its file in the tenant's file store (platform/uploads), which
 * holds the bytes' key, type, size and hash; the photo is served by `GET /api/files/:id`.
 */
export const galleryPhotos = sqliteTable(
  "gallery_photos",
  {
    id: text("id").primaryKey(),
    albumId: text("album_id").notNull(),
    caption: text("caption"),
    createdBy: text("created_by").notNull(),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
  },
  (t) => [index("gallery_photos_album_idx").on(t.albumId, t.id)],
);
