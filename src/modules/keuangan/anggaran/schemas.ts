import { z } from "zod";
import { Category, Rupiah } from "../schemas-shared";

// --- budget (anggaran) -------------------------------------------------------------------------

export const BudgetQuery = z.object({ tahun: z.coerce.number().int().min(2000).max(2100) });
export const YearParam = z.object({ tahun: z.coerce.number().int().min(2000).max(2100) });
export const BudgetInput = z.object({
  lines: z
    .array(z.object({ category: Category, amount: Rupiah }))
    .max(100)
    .refine((lines) => new Set(lines.map((l) => l.category)).size === lines.length, "categories repeat"),
});
export type BudgetInput = z.infer<typeof BudgetInput>;

export const Budget = z
  .object({
    year: z.number().int(),
    lines: z.array(
      z.object({
        category: z.string(),
        amount: z.number().int(),
        realised: z.number().int().describe("Net spending of the year's cash-book entries of the category"),
        percentUsed: z.number(),
      }),
    ),
    totals: z.object({ amount: z.number().int(), realised: z.number().int(), percentUsed: z.number() }),
  })
  .openapi("Budget");
