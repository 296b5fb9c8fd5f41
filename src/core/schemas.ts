import { z } from "zod";
import { normaliseIndonesianMobile } from "./phone";

/** Shared field primitives: one definition of each value more than one module accepts. */

export const SLUG_RE = /^[a-z0-9-]{3,48}$/;
/** A tenant's public name in URLs and tokens (`rt-01-sukamaju`). */
export const Slug = z.string().regex(SLUG_RE, "3 to 48 lowercase letters, digits or hyphens");

/** Field-level phone check, so a bad number is a 400 naming the field, like any other bad input. */
export const IndonesianMobile = z
  .string()
  .max(32)
  .transform((value, ctx) => {
    const normalised = normaliseIndonesianMobile(value);
    if (!normalised) {
      ctx.addIssue({ code: "custom", message: "not an Indonesian mobile number (08…, +62…, 62…)" });
      return z.NEVER;
    }
    return normalised;
  });

/** Blocks and house numbers are compared as written on the gate: trimmed, upper case, single spaces. */
export const normaliseBlock = (v: string) => v.trim().toUpperCase().replace(/\s+/g, " ");
export const normaliseHouseNumber = (v: string) => v.trim().toUpperCase().replace(/\s+/g, " ");
export const Block = z.string().trim().min(1).max(20).transform(normaliseBlock);
export const HouseNumber = z.string().trim().min(1).max(20).transform(normaliseHouseNumber);
