import { jakartaDay } from "../../core/time";

// The month a turn asks about ("bulan oktober", "last month"), as a period YYYY-MM (the built-in mode, builtin.ts).

const MONTHS: [RegExp, number][] = [
  [/\b(januari|january|jan)\b/, 1],
  [/\b(februari|february|pebruari|feb)\b/, 2],
  [/\b(maret|march|mar)\b/, 3],
  [/\b(april|apr)\b/, 4],
  [/\b(mei|bulan may)\b/, 5],
  [/\b(juni|june|jun)\b/, 6],
  [/\b(juli|july|jul)\b/, 7],
  [/\b(agustus|august|agu|agt|ags|aug)\b/, 8],
  [/\b(september|sept|sep)\b/, 9],
  [/\b(oktober|october|okt|oct)\b/, 10],
  [/\b(november|nopember|nov)\b/, 11],
  [/\b(desember|december|des|dec)\b/, 12],
];

const periodOf = (year: number, month: number) => `${year}-${String(month).padStart(2, "0")}`;

function shift(period: string, months: number): string {
  const [year, month] = period.split("-").map(Number) as [number, number];
  const index = year * 12 + (month - 1) + months;
  return periodOf(Math.floor(index / 12), (index % 12) + 1);
}

/**
 * The billing period a turn asks about ("bulan oktober", "okt 2025", "bulan lalu", "bulan ini"), or null.
 * A month without a year is its latest occurrence up to this month.
 */
export function periodAsked(text: string, now: Date): string | null {
  const current = jakartaDay(now).slice(0, 7);
  if (/\b(bulan ini|this month)\b/.test(text)) {
    return current;
  }
  if (/\b(bulan lalu|bulan kemarin|bulan sebelumnya|last month|previous month)\b/.test(text)) {
    return shift(current, -1);
  }
  if (/\b(bulan depan|next month)\b/.test(text)) {
    return shift(current, 1);
  }
  const month = MONTHS.find(([re]) => re.test(text))?.[1];
  if (!month) {
    return null;
  }
  const year = /\b(20\d\d)\b/.exec(text)?.[1];
  if (year) {
    return periodOf(Number(year), month);
  }
  const [y, m] = current.split("-").map(Number) as [number, number];
  return periodOf(month <= m ? y : y - 1, month);
}

/** Whether the text names a month at all (a turn that continues its topic with "yang bulan oktober?"). */
export const namesAMonth = (text: string) => MONTHS.some(([re]) => re.test(text));
