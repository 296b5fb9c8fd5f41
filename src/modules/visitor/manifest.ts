import { fileReference, personalColumns, personalData } from "../../core/module";
import { regularVisitors, visitorPassages, visitorSettings, visitors } from "./tables";

/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const visitorPersonalData = personalData(
  personalColumns(visitors, {
    subjects: [
      visitors.residentId,
      visitors.decidedBy,
      visitors.checkedInBy,
      visitors.checkedOutBy,
      visitors.registeredBy,
    ],
    personal: [visitors.guestName, visitors.purpose, visitors.vehiclePlate, visitors.identity, visitors.note],
    // The guest's identity number is the guest's, not the resident's who registered the visit.
    aboutOthers: [visitors.identity],
    other: [
      visitors.id,
      visitors.unitId,
      visitors.visitAt,
      visitors.status,
      visitors.decidedAt,
      visitors.passValidFrom,
      visitors.passValidUntil,
      visitors.notifiedAt,
      visitors.checkedInAt,
      visitors.checkedOutAt,
      visitors.createdAt,
      visitors.updatedAt,
      visitors.category,
      visitors.stayUntil,
      visitors.approvalMethod,
      visitors.regularId,
      visitors.photoFileId,
    ],
  }),
  personalColumns(regularVisitors, {
    subjects: [regularVisitors.residentId, regularVisitors.revokedBy],
    personal: [regularVisitors.name, regularVisitors.vehiclePlate],
    // The regular visitor's name is theirs, not the household's who issued the card.
    aboutOthers: [regularVisitors.name, regularVisitors.vehiclePlate],
    other: [
      regularVisitors.id,
      regularVisitors.unitId,
      regularVisitors.role,
      regularVisitors.days,
      regularVisitors.fromTime,
      regularVisitors.untilTime,
      regularVisitors.validUntil,
      regularVisitors.revokedAt,
      regularVisitors.createdAt,
      regularVisitors.updatedAt,
    ],
  }),
  personalColumns(visitorPassages, {
    subjects: [visitorPassages.passedBy],
    other: [visitorPassages.id, visitorPassages.visitorId, visitorPassages.direction, visitorPassages.at],
  }),
  personalColumns(visitorSettings, {
    subjects: [visitorSettings.updatedBy],
    other: [visitorSettings.updatedAt],
  }),
);

// A walk-in's photo (issue 45) is kept while the walk-in points at it.
/** Files of the tenant store its rows point at: the daily sweep of unattached uploads keeps these. */
export const visitorFileReferences = [fileReference(visitors.photoFileId)];
