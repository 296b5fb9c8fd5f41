import { jakartaDay, period } from "../../format";
import { useLanguage } from "../../i18n";
import { useSession } from "../../session";
import { dutiesOf } from "../duties";
import { fx } from "./text";

/** What the API's answers look like here (src/modules/keuangan/schemas.ts and each folder's schemas.ts). */
export interface Aging {
  d0_30: number;
  d31_60: number;
  d61_90: number;
  d90plus: number;
}
export interface ArrearsUnit {
  unitId: string;
  block: string | null;
  number: string | null;
  headName: string | null;
  waLink: string | null;
  owed: number;
  unpaidBills: number;
  oldestPeriod: string;
  aging: Aging;
}
export interface Arrears {
  asOf: string;
  items: ArrearsUnit[];
  totals: { owed: number; units: number; aging: Aging };
  bulanIni: { period: string; dueDate: string; overdue: boolean; outstanding: number; units: number };
  nextCursor: string | null;
}
export interface Report {
  tenantName: string;
  month: string;
  openingBalance: number;
  income: { total: number; byCategory: { category: string; amount: number }[] };
  expense: { total: number; byCategory: { category: string; amount: number }[] };
  closingBalance: number;
  dues: {
    billed: number;
    collected: number;
    percentCollected: number;
    receivedInMonth: number;
    reversedInMonth: number;
  };
  arrearsTotal: number;
  generatedAt: string;
}

/** What the person may do here, by the API's access lines (keuangan/index.ts): staff read, finance writes. */
export function useDuty() {
  // Every screen asks for the duty: re-rendered when the language changes, too.
  useLanguage();
  const session = useSession();
  const duties = session.status === "signedIn" ? dutiesOf(session.user) : [];
  return {
    /** bendahara or admin: record, generate, submit, decide (ROLES.FINANCE). */
    finance: duties.includes("bendahara") || duties.includes("admin"),
    /** admin alone: the budget (ROLES.ADMIN). */
    admin: duties.includes("admin"),
  };
}

/** The Jakarta month now, `YYYY-MM`. */
export const thisMonth = (): string => jakartaDay(new Date()).slice(0, 7);

export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split("-").map(Number) as [number, number];
  const index = y * 12 + (m - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;
}

/** Months to choose from: `back` months before this one to `ahead` after, newest first. */
export function monthOptions(back = 12, ahead = 0) {
  const now = thisMonth();
  const out: { value: string; label: string }[] = [];
  for (let i = ahead; i >= -back; i--) {
    const value = shiftMonth(now, i);
    out.push({ value, label: period(value) });
  }
  return out;
}

/** The first and last day of a month, for the date-range filters. */
export function monthRange(month: string): { from: string; to: string } {
  const last = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, "0")}` };
}

export function unitName(u: { block: string | null; number: string | null; unitId: string }): string {
  return u.block || u.number ? fx("unitLabel", { block: u.block ?? "-", number: u.number ?? "-" }) : u.unitId;
}

/** Rupiah typed as text ("25.000", "25000"): the digits, or NaN when there are none. */
export function rupiahInput(text: string): number {
  const digits = text.replace(/[^\d]/g, "");
  return digits ? Number(digits) : Number.NaN;
}

/** A status word from the catalogue ("diajukan" → "Diajukan"). */
export function Status({ value }: { value: string }) {
  return <span class={`badge fin-${value}`}>{fx(value as "aktif")}</span>;
}
