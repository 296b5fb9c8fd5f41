import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { rowVersion } from "../../core/db/row-version";

export const CONTENT_STATUSES = ["draft", "terbit"] as const;
export type ContentStatus = (typeof CONTENT_STATUSES)[number];

export interface Channels {
  push: boolean;
  whatsapp: boolean;
  email: boolean;
}

/**
 * News (berita). The Markdown is kept as written and its sanitised HTML rendered once on write.
 * `version` counts published content changes; `notifiedVersion` is the last version whose push went
 * to the notification service (behind it: a fan-out still owed, retried by the hourly job).
 */
export const berita = sqliteTable(
  "berita",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    bodyHtml: text("body_html").notNull(),
    /** A file of the tenant's store uploaded as `sampul` (POST /api/files). */
    coverFileId: text("cover_file_id"),
    status: text("status", { enum: CONTENT_STATUSES }).notNull(),
    authorId: text("author_id").notNull(),
    version: integer("version").notNull().default(1),
    notifiedVersion: integer("notified_version"),
    publishedAt: text("published_at"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("berita_status_idx").on(t.status, t.id)],
);

/**
 * Announcements (pengumuman): like news, plus urgency, the channels of the fan-out and the audience
 * (`blocks` null: everyone; otherwise the residents of these blocks).
 */
export const pengumuman = sqliteTable(
  "pengumuman",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    title: text("title").notNull(),
    body: text("body").notNull(),
    bodyHtml: text("body_html").notNull(),
    urgent: integer("urgent", { mode: "boolean" }).notNull().default(false),
    channels: text("channels", { mode: "json" }).$type<Channels>().notNull(),
    blocks: text("blocks", { mode: "json" }).$type<string[] | null>(),
    status: text("status", { enum: CONTENT_STATUSES }).notNull(),
    authorId: text("author_id").notNull(),
    version: integer("version").notNull().default(1),
    notifiedVersion: integer("notified_version"),
    publishedAt: text("published_at"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("pengumuman_status_idx").on(t.status, t.id)],
);

/** Community events. `remindedFor` is the start time whose evening-before reminder went out. */
export const agenda = sqliteTable(
  "agenda",
  {
    id: text("id").primaryKey(),
    /** ETag and If-Match (ADR 0035); moved by a trigger, never set here. */
    rowVersion: rowVersion(),
    title: text("title").notNull(),
    description: text("description").notNull(),
    place: text("place").notNull(),
    startsAt: text("starts_at").notNull(),
    endsAt: text("ends_at").notNull(),
    authorId: text("author_id").notNull(),
    remindedFor: text("reminded_for"),
    createdAt: text("created_at").notNull().default(sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [index("agenda_starts_idx").on(t.startsAt, t.id), index("agenda_ends_idx").on(t.endsAt)],
);
