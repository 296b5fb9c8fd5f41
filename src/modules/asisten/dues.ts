import type { TenantCtx } from "../../core/context";
import { duesOfCaller } from "../keuangan/service";

/** One bill of the caller's household, as the assistant tells it. */
export interface DuesBill {
  id: string;
  /** The period `YYYY-MM` (a calendar month in Asia/Jakarta). */
  period: string;
  /** Rupiah still owed. */
  amount: number;
  paid: boolean;
}

/**
 * The caller's unpaid dues, newest period first, from the finance module's `duesOfCaller` verb (the
 * household of the caller's unit; none while the profile has no unit). Null would mean "not available".
 */
export async function callerDues({ ctx }: { ctx: TenantCtx }): Promise<DuesBill[] | null> {
  const dues = await duesOfCaller({ ctx });
  if (!dues) {
    return [];
  }
  return dues.items
    .map((bill) => ({
      id: bill.id,
      period: bill.period,
      amount: bill.outstanding,
      paid: bill.status === "lunas",
    }))
    .sort((a, b) => b.period.localeCompare(a.period));
}
