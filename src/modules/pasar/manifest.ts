import { fileReference, personalColumns, personalData } from "../../core/module";
import { pasarListings, pasarPhotos } from "./tables";

/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const pasarPersonalData = personalData(
  // A resident's own listing: what they wrote, and the moderator's reason addressed to them about it.
  personalColumns(pasarListings, {
    subjects: [pasarListings.sellerId, pasarListings.moderatedBy],
    personal: [pasarListings.title, pasarListings.description, pasarListings.moderationReason],
    other: [
      pasarListings.id,
      pasarListings.category,
      pasarListings.condition,
      pasarListings.status,
      pasarListings.moderatedAt,
      pasarListings.createdAt,
      pasarListings.updatedAt,
    ],
  }),
  personalColumns(pasarPhotos, { other: [pasarPhotos.fileId, pasarPhotos.listingId] }),
);

// A listing's photos (tenant file store); the daily sweep of unattached uploads keeps them.
/** Files of the tenant store its rows point at: the daily sweep of unattached uploads keeps these. */
export const pasarFileReferences = [fileReference(pasarPhotos.fileId)];
