import type { TenantCtx } from "../../core/context";

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
 * The caller's dues, newest period first, or null while no dues module is mounted ("not available").
 * The dues module is being built in parallel (issue 14): at merge this is the one place that calls its
 * `duesOfCaller({ ctx })` verb and maps its answer to `DuesBill`.
 */
export async function callerDues(_: { ctx: TenantCtx }): Promise<DuesBill[] | null> {
  return null;
}
