/**
 * Contacts as staff who are not admins see them (issue 27; issue 44, P8: the residents list and the
 * members list mask alike, and a search by them matches only what the caller sees).
 */

/** `dewi@warga.test` → `d***@warga.test`. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  return at <= 0 ? "***" : `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** `6281234567890` → `6281*******90`: enough to tell two members apart, not enough to call them. */
export function maskWhatsapp(number: string): string {
  return number.length <= 6
    ? "***"
    : `${number.slice(0, 4)}${"*".repeat(number.length - 6)}${number.slice(-2)}`;
}
