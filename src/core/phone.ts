/**
 * Indonesian mobile numbers as E.164 digits without the plus (`62812…`), the form WhatsApp gateways
 * take. `0812…`, `+62 812…`, `62-812-…` and `(0812) …` are one number. Mobile numbers start with 8 after
 * the country code and have 9 to 12 digits after it; landlines (`021…`) and foreign numbers are refused,
 * since a WhatsApp invitation or sign-in link must reach a phone.
 */
const MOBILE_RE = /^628[1-9]\d{7,10}$/;

export function normaliseIndonesianMobile(input: string): string | null {
  const compact = input.trim().replace(/[\s().-]/g, "");
  let digits = compact.startsWith("+") ? compact.slice(1) : compact;
  if (!/^\d+$/.test(digits)) {
    return null;
  }
  if (digits.startsWith("08")) {
    digits = `62${digits.slice(1)}`;
  }
  return MOBILE_RE.test(digits) ? digits : null;
}

/**
 * Any phone number as the bare international digits WhatsApp providers take (`0812…` → `62812…`, a
 * leading `+` dropped), or null when it is not a number at all. Lenient on purpose: this is for
 * delivery to numbers already accepted, including foreign ones; input is checked with
 * `normaliseIndonesianMobile` above.
 */
export function toMsisdn(input: string): string | null {
  const compact = input.replace(/[\s().-]/g, "");
  const digits = compact.startsWith("+") ? compact.slice(1) : compact;
  if (!/^\d+$/.test(digits)) {
    return null;
  }
  const international = digits.startsWith("0") ? `62${digits.slice(1)}` : digits;
  return /^[1-9]\d{7,14}$/.test(international) ? international : null;
}

/**
 * A number as a search term finds it as stored (ADR 0047): the digits of what was typed, separators
 * and a leading `+` dropped, a leading `0` read as Indonesia's `62` (`0812-3456` → `628123456`), or
 * null when the term is not (the start of) a number: fewer than 3 digits, or anything but digits,
 * spaces, dots, dashes, brackets and one leading `+`.
 */
export function phoneSearchDigits(term: string): string | null {
  const compact = term.trim().replace(/[\s().-]/g, "");
  const digits = compact.startsWith("+") ? compact.slice(1) : compact;
  if (!/^\d{3,15}$/.test(digits)) {
    return null;
  }
  return digits.startsWith("0") ? `62${digits.slice(1)}` : digits;
}

/**
 * `toMsisdn` in SQLite, for a column holding a number a person typed in the registry's old rule
 * (`+?digits`): a leading `+` dropped, a leading `0` read as `62`. What the migration of ADR 0047 did to
 * the numbers already stored.
 */
export const msisdnSql = (column: string) =>
  `CASE WHEN ltrim(${column}, '+') LIKE '0%' THEN '62' || substr(ltrim(${column}, '+'), 2) ELSE ltrim(${column}, '+') END`;
