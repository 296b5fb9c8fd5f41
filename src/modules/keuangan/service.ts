import type { TenantCtx } from "../../core/context";
import { membershipIn } from "../identity/service";
import { duesOfUnit } from "./iuran/payments";

/**
 * The finance module's verbs for other modules (the assistant, the watch summary, the RW summary).
 * Everything else in keuangan is reached through its routes.
 */

/**
 * The signed-in resident's pending dues: unpaid bills of their household's unit, oldest first, with
 * totals; null when the caller has no unit in this community yet.
 */
export async function duesOfCaller({ ctx }: { ctx: TenantCtx }) {
  const membership = await membershipIn({ ctx });
  if (!membership?.unitId) {
    return null;
  }
  const dues = await duesOfUnit(ctx, membership.unitId);
  return { ...dues, items: dues.items.filter((bill) => bill.status !== "lunas") };
}

export { applyGatewayPayment } from "./iuran/payments";
// A family's move-out (issue 45): the registry's batch settles its bills to its card.
export { settleBillsToFamily } from "./iuran/pindah";
export { activeCampaigns } from "./kampanye/campaigns";
// The finance part of a community's handover pack (platform-ops' archive): sheets, the cash book's
// printable page, and the monthly report's own workbook and page.
export { cashBookHtml, cashBookSheets, cashBookYears, duesSheets, reportMonths } from "./laporan/handover";
export { financeReport, reportHtml, reportXlsx } from "./laporan/report";
