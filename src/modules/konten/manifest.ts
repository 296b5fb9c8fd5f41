import { fileReference, personalColumns, personalData } from "../../core/module";
import { agenda, berita, pengumuman } from "./tables";

// Judgment call: news, announcements and events are written by the secretariat in office for the
// whole community, so their text is the community's own (`other`), like a poll's wording. Erasing a
// former secretary anonymises `author_id` and leaves what the RT published readable.
/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const kontenPersonalData = personalData(
  personalColumns(berita, {
    subjects: [berita.authorId],
    other: [
      berita.id,
      berita.title,
      berita.body,
      berita.bodyHtml,
      berita.coverFileId,
      berita.status,
      berita.publishedAt,
      berita.createdAt,
      berita.updatedAt,
    ],
  }),
  personalColumns(pengumuman, {
    subjects: [pengumuman.authorId],
    other: [
      pengumuman.id,
      pengumuman.title,
      pengumuman.body,
      pengumuman.bodyHtml,
      pengumuman.channels,
      pengumuman.blocks,
      pengumuman.status,
      pengumuman.publishedAt,
      pengumuman.createdAt,
      pengumuman.updatedAt,
    ],
  }),
  personalColumns(agenda, {
    subjects: [agenda.authorId],
    other: [
      agenda.id,
      agenda.title,
      agenda.description,
      agenda.place,
      agenda.startsAt,
      agenda.endsAt,
      agenda.remindedFor,
      agenda.createdAt,
      agenda.updatedAt,
    ],
  }),
);

// A news item's cover (tenant file store); the daily sweep of unattached uploads keeps it.
/** Files of the tenant store its rows point at: the daily sweep of unattached uploads keeps these. */
export const kontenFileReferences = [fileReference(berita.coverFileId)];
