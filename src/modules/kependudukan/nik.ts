/**
 * NIK (Nomor Induk Kependudukan) rules beyond "16 digits". A NIK is PPKKCC DDMMYY SSSS: province,
 * regency and district codes, the birth date (day + 40 for women), and a serial. A KK number starts
 * with the same region codes. Pure functions: the API, the import and the mutasi all use them.
 */

/** Province codes (Kemendagri), including the Papua provinces formed in 2022. */
const PROVINCES = new Set([
  11, 12, 13, 14, 15, 16, 17, 18, 19, 21, 31, 32, 33, 34, 35, 36, 51, 52, 53, 61, 62, 63, 64, 65, 71, 72, 73,
  74, 75, 76, 81, 82, 91, 92, 93, 94, 95, 96,
]);

function validDay(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

export interface NikFacts {
  sex?: "L" | "P" | null;
  birthDate?: string | null;
}

/**
 * What is wrong with a NIK, as messages for the `nik` field (none: it is valid). When `sex` or
 * `birthDate` are known they must agree with what the NIK encodes.
 */
export function nikProblems(nik: string, facts: NikFacts = {}): string[] {
  if (!/^\d{16}$/.test(nik)) {
    return ["a NIK is 16 digits"];
  }
  if (!PROVINCES.has(Number(nik.slice(0, 2)))) {
    return ["the NIK does not start with a valid province code"];
  }
  const rawDay = Number(nik.slice(6, 8));
  const month = Number(nik.slice(8, 10));
  const yy = Number(nik.slice(10, 12));
  const female = rawDay > 40;
  const day = female ? rawDay - 40 : rawDay;
  if (!validDay(1900 + yy, month, day) && !validDay(2000 + yy, month, day)) {
    return ["digits 7 to 12 of the NIK are not a valid date of birth (DDMMYY, day + 40 for women)"];
  }
  if (nik.slice(12) === "0000") {
    return ["the NIK's serial (last four digits) cannot be 0000"];
  }
  const problems: string[] = [];
  if (facts.sex && (facts.sex === "P") !== female) {
    problems.push(`the NIK encodes ${female ? "a woman (day + 40)" : "a man"}, but sex is ${facts.sex}`);
  }
  if (facts.birthDate) {
    const [y, m, d] = facts.birthDate.split("-").map(Number);
    if (d !== day || m !== month || (y ?? 0) % 100 !== yy) {
      problems.push("the NIK's date digits do not match birthDate");
    }
  }
  return problems;
}

export function kkNumberProblems(kkNumber: string): string[] {
  if (!/^\d{16}$/.test(kkNumber)) {
    return ["a KK number is 16 digits"];
  }
  if (!PROVINCES.has(Number(kkNumber.slice(0, 2)))) {
    return ["the KK number does not start with a valid province code"];
  }
  return [];
}
