import { fileReference, personalColumns, personalData } from "../../core/module";
import {
  budgetLines,
  budgetYears,
  campaigns,
  cashEntries,
  cashMonths,
  donations,
  duesBalances,
  duesBills,
  duesPayments,
  duesReminders,
  duesTypes,
  duesUnitBalances,
  expenses,
  financeSettings,
} from "./tables";

// The books stay whole on erasure: rows are kept and ids become the anonymous reference. Judgment
// call: a cash entry's note, an expense's description and reason, and a campaign's text are written
// by the treasurer or the head in office about the community's money, so they are the community's
// own (`other`); an expense's description is also copied into its cash entry's note, and the two
// must not diverge. What a donor wrote, and a donor's name, are personal.
/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const keuanganPersonalData = personalData(
  personalColumns(duesTypes, {
    other: [
      duesTypes.id,
      duesTypes.name,
      duesTypes.basis,
      duesTypes.startPeriod,
      duesTypes.rates,
      duesTypes.exemptUnitIds,
      duesTypes.createdAt,
      duesTypes.updatedAt,
    ],
  }),
  personalColumns(duesBills, {
    other: [
      duesBills.id,
      duesBills.typeId,
      duesBills.typeName,
      duesBills.period,
      duesBills.basis,
      duesBills.targetId,
      duesBills.unitId,
      duesBills.familyId,
      duesBills.movedOutFamilyId,
      duesBills.status,
      duesBills.lastPaymentId,
      duesBills.createdAt,
      duesBills.updatedAt,
    ],
  }),
  // A reversal's reason is the treasurer's note on the community's money, like a correction's.
  personalColumns(duesPayments, {
    subjects: [duesPayments.recordedBy, duesPayments.reversedBy],
    other: [
      duesPayments.id,
      duesPayments.billId,
      duesPayments.method,
      duesPayments.paidAt,
      duesPayments.gatewayOrderId,
      duesPayments.proofFileId,
      duesPayments.cashEntryId,
      duesPayments.reversedAt,
      duesPayments.reversalReason,
      duesPayments.reversalEntryId,
      duesPayments.createdAt,
    ],
  }),
  personalColumns(duesBalances, {
    other: [
      duesBalances.targetId,
      duesBalances.period,
      duesBalances.basis,
      duesBalances.unitId,
      duesBalances.familyId,
    ],
  }),
  personalColumns(duesUnitBalances, {
    other: [duesUnitBalances.unitId, duesUnitBalances.oldestPeriod, duesUnitBalances.newestPeriod],
  }),
  personalColumns(duesReminders, {
    other: [duesReminders.unitId, duesReminders.requestedAt, duesReminders.sendAfter, duesReminders.sentAt],
  }),
  personalColumns(cashEntries, {
    subjects: [cashEntries.createdBy],
    other: [
      cashEntries.id,
      cashEntries.kind,
      cashEntries.category,
      cashEntries.date,
      cashEntries.note,
      cashEntries.source,
      cashEntries.sourceId,
      cashEntries.reversesId,
      cashEntries.attachmentFileId,
      cashEntries.createdAt,
    ],
  }),
  personalColumns(cashMonths, { other: [cashMonths.month, cashMonths.category] }),
  personalColumns(budgetLines, { other: [budgetLines.id, budgetLines.category, budgetLines.createdAt] }),
  personalColumns(budgetYears, { other: [budgetYears.updatedAt] }),
  personalColumns(expenses, {
    subjects: [expenses.submittedBy, expenses.decidedBy],
    other: [
      expenses.id,
      expenses.category,
      expenses.date,
      expenses.description,
      expenses.status,
      expenses.reason,
      expenses.receiptFileId,
      expenses.decidedAt,
      expenses.cashEntryId,
      expenses.createdAt,
      expenses.updatedAt,
    ],
  }),
  personalColumns(campaigns, {
    subjects: [campaigns.createdBy],
    other: [
      campaigns.id,
      campaigns.title,
      campaigns.description,
      campaigns.deadline,
      campaigns.status,
      campaigns.coverFileId,
      campaigns.createdAt,
      campaigns.updatedAt,
    ],
  }),
  // `donor_id` first: erasing a donor blanks their name and note. A cash donation recorded by the
  // treasurer has no donor id, only `donor_name`, so no user id reaches it.
  personalColumns(donations, {
    subjects: [donations.donorId, donations.recordedBy, donations.decidedBy],
    personal: [donations.donorName, donations.note],
    other: [
      donations.id,
      donations.campaignId,
      donations.status,
      donations.decidedAt,
      donations.cashEntryId,
      donations.createdAt,
      donations.updatedAt,
    ],
  }),
  personalColumns(financeSettings, {
    subjects: [financeSettings.updatedBy],
    other: [financeSettings.updatedAt],
  }),
);

/** Files of the tenant store its rows point at: the daily sweep of unattached uploads keeps these. */
export const keuanganFileReferences = [
  fileReference(duesPayments.proofFileId),
  fileReference(cashEntries.attachmentFileId),
  fileReference(expenses.receiptFileId),
  fileReference(campaigns.coverFileId),
];
