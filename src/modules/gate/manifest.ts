import { personalColumns, personalData } from "../../core/module";
import { gateEvents } from "./tables";

/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const gatePersonalData = personalData(
  personalColumns(gateEvents, {
    other: [
      gateEvents.id,
      gateEvents.deviceId,
      gateEvents.kind,
      gateEvents.direction,
      gateEvents.visitorId,
      gateEvents.action,
      gateEvents.reason,
      gateEvents.occurredAt,
      gateEvents.createdAt,
    ],
  }),
);
