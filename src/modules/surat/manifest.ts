import { personalColumns, personalData } from "../../core/module";
import { letterEvents, letterSequences, letterSettings, letters } from "./tables";

/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const suratPersonalData = personalData(
  personalColumns(letters, {
    subjects: [letters.residentId, letters.decidedBy, letters.rwAckBy],
    // issued_as holds the signatory's name; rw_ack_name the RW head's, rw_ack_note the RW's reason.
    personal: [
      letters.onBehalfOf,
      letters.subjectName,
      letters.keperluan,
      letters.fields,
      letters.note,
      letters.issuedAs,
      letters.rwAckName,
      letters.rwAckNote,
    ],
    other: [
      letters.id,
      letters.unitId,
      letters.jenis,
      letters.status,
      letters.nomorSurat,
      letters.tanggalSurat,
      letters.verificationCode,
      letters.finishedAt,
      letters.rwAckStatus,
      letters.rwAckTitle,
      letters.rwAckAt,
      letters.createdAt,
      letters.updatedAt,
    ],
  }),
  personalColumns(letterEvents, {
    subjects: [letterEvents.actorId],
    personal: [letterEvents.note],
    other: [letterEvents.id, letterEvents.letterId, letterEvents.status, letterEvents.createdAt],
  }),
  personalColumns(letterSettings, {
    subjects: [letterSettings.updatedBy],
    personal: [letterSettings.headName],
    other: [
      letterSettings.rt,
      letterSettings.rw,
      letterSettings.kelurahan,
      letterSettings.villageKind,
      letterSettings.kecamatan,
      letterSettings.kota,
      letterSettings.provinsi,
      letterSettings.address,
      letterSettings.logoDataUrl,
      letterSettings.headTitle,
      letterSettings.numberFormat,
      letterSettings.updatedAt,
    ],
  }),
  personalColumns(letterSequences, {}),
);
