import { sql } from "drizzle-orm";
import { personalColumns, personalData } from "../../core/module";
import {
  corrections,
  familyCards,
  familyMembers,
  mutations,
  registryBirthMonths,
  registryCounts,
  units,
  unitsBlockCounts,
  vehicles,
} from "./tables";

/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const kependudukanPersonalData = personalData(
  personalColumns(units, {
    other: [units.id, units.block, units.number, units.occupancy, units.createdAt, units.updatedAt],
  }),
  // Counts kept by triggers for the statistics: aggregates over many persons, nobody's own record.
  personalColumns(registryCounts, {
    other: [
      registryCounts.livingStatus,
      registryCounts.sex,
      registryCounts.religion,
      registryCounts.residenceStatus,
    ],
  }),
  personalColumns(registryBirthMonths, { other: [registryBirthMonths.birthMonth] }),
  personalColumns(unitsBlockCounts, { other: [unitsBlockCounts.block] }),
  // Registry persons are not accounts: erasure by account id leaves them to the registry's own
  // edit and delete routes, but their fields are classified for export all the same.
  // A resident's own data export, through their account's link to their person (memberships.person_id):
  // the card of the family they head.
  personalColumns(familyCards, {
    ownRows: ({ personId }) =>
      sql`${familyCards.id} IN (SELECT ${familyMembers.familyCardId} FROM ${familyMembers} WHERE ${familyMembers.id} = ${personId} AND ${familyMembers.relationship} = 'kepala_keluarga')`,
    personal: [
      familyCards.kkNumber,
      familyCards.headName,
      familyCards.headNik,
      familyCards.headWhatsapp,
      familyCards.notes,
      familyCards.searchText,
    ],
    // The search column holds every member's name and plate: the household's, not only the head's.
    aboutOthers: [familyCards.searchText],
    other: [
      familyCards.id,
      familyCards.unitId,
      familyCards.status,
      familyCards.statusDate,
      familyCards.createdAt,
      familyCards.updatedAt,
    ],
  }),
  // Their own person record (the linked one); the rest of the household is not theirs.
  personalColumns(familyMembers, {
    ownRows: ({ personId }) => sql`${familyMembers.id} = ${personId}`,
    personal: [
      familyMembers.name,
      familyMembers.nik,
      familyMembers.relationship,
      familyMembers.sex,
      familyMembers.birthDate,
      familyMembers.birthPlace,
      familyMembers.religion,
      familyMembers.education,
      familyMembers.occupation,
      familyMembers.maritalStatus,
      familyMembers.citizenship,
      familyMembers.livingStatus,
      familyMembers.deathDate,
      familyMembers.residenceStatus,
    ],
    other: [familyMembers.id, familyMembers.familyCardId, familyMembers.createdAt, familyMembers.updatedAt],
  }),
  personalColumns(vehicles, {
    personal: [vehicles.plate, vehicles.plateKey, vehicles.brand, vehicles.model, vehicles.colour],
    other: [vehicles.id, vehicles.familyCardId, vehicles.kind, vehicles.createdAt, vehicles.updatedAt],
  }),
  personalColumns(corrections, {
    subjects: [corrections.userId, corrections.decidedBy],
    personal: [corrections.value, corrections.note, corrections.reason],
    other: [
      corrections.id,
      corrections.unitId,
      corrections.memberId,
      corrections.field,
      corrections.status,
      corrections.decidedAt,
      corrections.createdAt,
    ],
  }),
  personalColumns(mutations, {
    subjects: [mutations.recordedBy],
    owner: null,
    ownRows: ({ personId }) => sql`${mutations.memberId} = ${personId}`,
    personal: [mutations.personName, mutations.place, mutations.note],
    other: [
      mutations.id,
      mutations.kind,
      mutations.date,
      mutations.familyCardId,
      mutations.memberId,
      mutations.createdAt,
    ],
  }),
);
