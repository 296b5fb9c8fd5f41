/**
 * Indonesian vehicle plates (tanda nomor kendaraan bermotor) as people type them: `B 1234 XYZ`,
 * `b1234xyz` and `B-1234-XYZ` are one plate (ADR 0047).
 *
 * - The key (`plateKey`) is what plates are compared and searched by: upper case, with every space and
 *   dash removed. The registry's uniqueness rule holds on it (`vehicles.plate_key`).
 * - The display form (`displayPlate`) is what is stored and shown: the standard spaced form, region
 *   letters, number, suffix letters (`B 1234 XYZ`, `D 5 A`, `AB 12`). A plate of another shape (an old
 *   or special series, a foreign plate) is kept as typed, only upper-cased with single spaces, and is
 *   still compared by its key.
 * - What is not a plate at all (any character other than letters, digits, spaces and dashes; no letter
 *   or digit; a key over 15 characters) is refused: `plateKey` and `displayPlate` answer null.
 *
 * The database computes the same key in SQL for rows written without one (`PLATE_KEY_SQL`); the two
 * agree because a plate holds ASCII letters only, which SQLite's `upper` handles.
 */

const KEY_RE = /^[A-Z0-9]{1,15}$/;
/** Region letters (1–2), the number (1–4 digits), the suffix letters (0–3). */
const STANDARD_RE = /^([A-Z]{1,2})([0-9]{1,4})([A-Z]{0,3})$/;

/** The comparison key, or null when the text is not a plate. */
export function plateKey(input: string): string | null {
  const typed = input.trim().toUpperCase();
  if (!/^[A-Z0-9 \t-]*$/.test(typed)) {
    return null;
  }
  const key = typed.replace(/[\s-]+/g, "");
  return KEY_RE.test(key) ? key : null;
}

/** The form stored and shown: `B 1234 XYZ` for a standard plate, else as typed (upper case, single spaces). */
export function displayPlate(input: string): string | null {
  const key = plateKey(input);
  if (key === null) {
    return null;
  }
  const standard = STANDARD_RE.exec(key);
  if (standard) {
    return standard.slice(1).filter(Boolean).join(" ");
  }
  return input
    .trim()
    .toUpperCase()
    .replace(/\s*-\s*/g, "-")
    .replace(/\s+/g, " ");
}

/** A search term as a plate's key, when it could be part of one (at least two characters). */
export function plateSearchKey(term: string): string | null {
  const key = plateKey(term);
  return key !== null && key.length >= 2 ? key : null;
}

/**
 * `plateKey` in SQLite, for a column or expression holding a plate: what a migration, a trigger or an
 * archive restore computes for rows that came without a key.
 */
export const plateKeySql = (column: string) =>
  `upper(replace(replace(replace(${column}, ' ', ''), '-', ''), char(9), ''))`;
