import { fileReference, personalColumns, personalData } from "../../core/module";
import { complaintMessages, complaints, proposalEndorsements, proposals, suggestions } from "./tables";

/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const aspirasiPersonalData = personalData(
  personalColumns(complaints, {
    subjects: [complaints.residentId],
    personal: [complaints.title, complaints.description, complaints.photo, complaints.location],
    other: [
      complaints.id,
      complaints.unitId,
      complaints.category,
      complaints.status,
      complaints.createdAt,
      complaints.updatedAt,
    ],
  }),
  personalColumns(complaintMessages, {
    subjects: [complaintMessages.authorId],
    personal: [complaintMessages.body],
    other: [
      complaintMessages.id,
      complaintMessages.complaintId,
      complaintMessages.status,
      complaintMessages.createdAt,
    ],
  }),
  personalColumns(suggestions, {
    subjects: [suggestions.senderId, suggestions.readBy],
    personal: [suggestions.body],
    other: [suggestions.id, suggestions.readAt, suggestions.createdAt],
  }),
  personalColumns(proposals, {
    subjects: [proposals.residentId, proposals.decidedBy],
    personal: [proposals.title, proposals.description, proposals.note],
    other: [proposals.id, proposals.status, proposals.decidedAt, proposals.createdAt, proposals.updatedAt],
  }),
  personalColumns(proposalEndorsements, {
    subjects: [proposalEndorsements.userId],
    other: [proposalEndorsements.proposalId, proposalEndorsements.createdAt],
  }),
);

// A complaint's photo is the file route of the complainant's `pengaduan` upload, not an id: the file
// is named inside that text (`…/api/files/<id>`), so the daily sweep of unattached uploads looks there.
/** Files of the tenant store its rows point at: the daily sweep of unattached uploads keeps these. */
export const aspirasiFileReferences = [fileReference(complaints.photo, "text")];
