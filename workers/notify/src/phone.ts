// Indonesian numbers arrive as 0812…, +62 812…, 62-812-…; providers want bare international digits.
export function normalizeMsisdn(input: string): string | null {
  const compact = input.replace(/[\s().-]/g, "");
  const digits = compact.startsWith("+") ? compact.slice(1) : compact;
  if (!/^\d+$/.test(digits)) {
    return null;
  }
  const international = digits.startsWith("0") ? `62${digits.slice(1)}` : digits;
  return /^[1-9]\d{7,14}$/.test(international) ? international : null;
}
