import { z } from "zod";
import { normaliseIndonesianMobile, toMsisdn } from "./phone";
import { displayPlate } from "./plate";

/** Shared field primitives: one definition of each value more than one module accepts. */

export const SLUG_RE = /^[a-z0-9-]{3,48}$/;
/** A tenant's public name in URLs and tokens (`rt-01-sukamaju`). */
export const Slug = z.string().regex(SLUG_RE, "3 to 48 lowercase letters, digits or hyphens");

/** Field-level phone check, so a bad number is a 400 naming the field, like any other bad input. */
export const IndonesianMobile = z
  .string()
  .max(32)
  .describe(
    "An Indonesian mobile number: 08…, +62… or 62… (spaces, dots, dashes and brackets are ignored), then 8 and 9 to 11 more digits; landlines and foreign numbers are refused",
  )
  .transform((value, ctx) => {
    const normalised = normaliseIndonesianMobile(value);
    if (!normalised) {
      ctx.addIssue({ code: "custom", message: "not an Indonesian mobile number (08…, +62…, 62…)" });
      return z.NEVER;
    }
    return normalised;
  });

/**
 * A phone number that need not be an Indonesian mobile (a family card's WhatsApp, which may be a
 * relative's abroad): kept as the bare international digits `toMsisdn` gives, so `0812-3456-7890`,
 * `+62 812 3456 7890` and `6281234567890` are stored, matched and searched as one (ADR 0047).
 */
export const PhoneNumber = z
  .string()
  .max(32)
  .describe(
    "A phone number: 08…, +62… or 62… (spaces, dots, dashes and brackets are ignored), or + and another country's code; kept as the international digits (6281234567890), 8 to 15 of them",
  )
  .transform((value, ctx) => {
    const normalised = toMsisdn(value.trim());
    if (!normalised) {
      ctx.addIssue({
        code: "custom",
        message: "not a phone number (08…, +62…, 62…, or + and the country code)",
      });
      return z.NEVER;
    }
    return normalised;
  });

/**
 * What a vehicle plate field says in /openapi.json (the registry's and the guest book's): the rule its
 * normalised form keeps, which a pattern on the text as sent cannot state (ADR 0047).
 */
export const PLATE_RULE =
  "Letters, digits, spaces and dashes, at most 15 letters and digits; compared without spaces, dashes or case (`b1234xyz`, `B-1234-XYZ` and `B 1234 XYZ` are one plate) and kept in the spaced form `B 1234 XYZ` (a plate of another shape: upper case, as typed)";

/** A vehicle plate as typed, kept in its display form (`src/core/plate.ts`); what is not a plate is refused. */
export const Plate = z
  .string()
  .max(20)
  .describe(PLATE_RULE)
  .transform((value, ctx) => {
    const plate = displayPlate(value);
    if (plate === null) {
      ctx.addIssue({ code: "custom", message: "not a vehicle plate (letters, digits, spaces, dashes)" });
      return z.NEVER;
    }
    return plate;
  });

/** Blocks and house numbers are compared as written on the gate: trimmed, upper case, single spaces. */
export const normaliseBlock = (v: string) => v.trim().toUpperCase().replace(/\s+/g, " ");
export const normaliseHouseNumber = (v: string) => v.trim().toUpperCase().replace(/\s+/g, " ");
export const Block = z.string().trim().min(1).max(20).transform(normaliseBlock);
export const HouseNumber = z.string().trim().min(1).max(20).transform(normaliseHouseNumber);

/**
 * Characters no text field takes: C0 controls (NUL, ESC of ANSI sequences, …) except line breaks and
 * tabs, DEL and the C1 controls, and the bidirectional overrides and isolates (U+202A–202E,
 * U+2066–2069) that make "gpj.exe" read as "exe.jpg" in an email, a PDF or a console.
 */
export function hasUnsafeText(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (
      c <= 0x08 ||
      c === 0x0b ||
      c === 0x0c ||
      (c >= 0x0e && c <= 0x1f) ||
      (c >= 0x7f && c <= 0x9f) ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    ) {
      return true;
    }
  }
  return false;
}

const hasLineBreak = (value: string) => /[\r\n\t]/.test(value);

/** A one-line text field (a name, a title, a letterhead line): trimmed, no control characters at all. */
export const Line = (max: number, min = 1) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((v) => !hasUnsafeText(v) && !hasLineBreak(v), "must not contain control characters");

/**
 * A multi-line text field (a description, a message): line breaks kept (CRLF becomes LF), no other
 * controls. The bounds stand on the text as sent too, so /openapi.json states them (a transform hides
 * the checks piped after it from the schema; issue 42), and again on the trimmed text.
 */
export const Paragraph = (max: number, min = 1) =>
  z
    .string()
    .min(min)
    .max(max)
    .transform((v) => v.replace(/\r\n?/g, "\n").trim())
    .pipe(
      z
        .string()
        .min(min)
        .max(max)
        .refine((v) => !hasUnsafeText(v), "must not contain control characters"),
    );

/** An email address as accounts store it: trimmed and lower case, so one address is one account. */
export const Email = z
  .email()
  .max(254)
  // The pattern zod checks, stated so /openapi.json refuses what the run time refuses (issue 42).
  .openapi({ pattern: z.regexes.email.source })
  .transform((v) => v.trim().toLowerCase());

/**
 * What became of an invitation or set-password link (issue 45): the channel it actually went by, and
 * when nothing was sent, why and what staff can do (identity's `InvitationResult`).
 */
export const InvitationOutcome = z.object({
  channel: z.enum(["email", "whatsapp"]).nullable(),
  sent: z.boolean().describe("Whether the notification service took the message"),
  reason: z
    .enum(["no_contact", "delivery_failed"])
    .optional()
    .describe("Only when not sent: no email or number to send to, or the notification service failed"),
  hint: z.string().optional().describe("Only when not sent: what to do instead (Indonesian)"),
});
