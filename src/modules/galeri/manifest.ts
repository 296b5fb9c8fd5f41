import { fileReference, personalColumns, personalData } from "../../core/module";
import { galleryAlbums, galleryPhotos } from "./tables";

// Judgment call: albums and their captions are the secretariat's institutional content (only the
// secretariat writes them), so their text is the community's own, like news; only the ids of who
// created them are a person's.
/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const galeriPersonalData = personalData(
  personalColumns(galleryAlbums, {
    subjects: [galleryAlbums.createdBy],
    other: [
      galleryAlbums.id,
      galleryAlbums.title,
      galleryAlbums.description,
      galleryAlbums.eventDate,
      galleryAlbums.createdAt,
      galleryAlbums.updatedAt,
    ],
  }),
  personalColumns(galleryPhotos, {
    subjects: [galleryPhotos.createdBy],
    other: [galleryPhotos.id, galleryPhotos.albumId, galleryPhotos.caption, galleryPhotos.createdAt],
  }),
);

// A gallery photo's id is its file's id; the daily sweep of unattached uploads keeps them.
/** Files of the tenant store its rows point at: the daily sweep of unattached uploads keeps these. */
export const galeriFileReferences = [fileReference(galleryPhotos.id)];
