import { z } from "zod";
import { Line } from "../../core/schemas";

// Field primitives shared by the finance schemas (each folder's schemas.ts; `schemas.ts` re-exports them all).

/** Integer rupiah, positive, below a sanity ceiling (one trillion). */
export const Rupiah = z.number().int().positive().max(1_000_000_000_000);
export const Category = Line(60, 2);
export const FileId = z.string().min(1).max(64);
