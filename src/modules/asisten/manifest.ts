import { personalColumns, personalData } from "../../core/module";
import { asistenInfo, asistenUsage } from "./tables";

/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const asistenPersonalData = personalData(
  // The rules and agenda text is the secretariat's, written for every member: the community's own.
  personalColumns(asistenInfo, {
    subjects: [asistenInfo.updatedBy],
    other: [asistenInfo.id, asistenInfo.rules, asistenInfo.agenda, asistenInfo.updatedAt],
  }),
  personalColumns(asistenUsage, { subjects: [asistenUsage.userId], other: [asistenUsage.day] }),
);
