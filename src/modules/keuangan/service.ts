/**
 * keuangan's public face: the verbs other modules use (the assistant, the watch summary, the registry's
 * move-out, platform-ops' archive). It holds no logic: each verb lives in the file named for what it
 * does, and everything else in keuangan is reached through its routes.
 */

// A household's own dues (the assistant, the watch summary).
export { duesOfCaller, owedQuery, presentOwed } from "./iuran/household";
// A family's move-out (issue 45): the registry's batch settles its bills to its card.
export { settleBillsToFamily } from "./iuran/pindah";
// Active campaigns with their progress (the assistant, the watch summary).
export { activeCampaignsQuery, presentActiveCampaigns } from "./kampanye/campaigns";
// The finance part of a community's handover pack (platform-ops' archive): sheets, the cash book's
// printable page, and the monthly report's own workbook and page.
export { cashBookHtml, cashBookSheets, cashBookYears, duesSheets, reportMonths } from "./laporan/handover";
export { financeReport, reportHtml, reportXlsx } from "./laporan/report";
