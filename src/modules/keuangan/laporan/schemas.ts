import { z } from "zod";
import { Period } from "../periods";

// --- reports ------------------------------------------------------------------------------------

export const ReportQuery = z.object({
  bulan: Period,
  format: z.enum(["json", "pdf", "xlsx"]).default("json"),
});
export const PublicReportQuery = z.object({
  bulan: Period.optional().describe("The month; the current Jakarta month when left out"),
});
export const SlugParam = z.object({ slug: z.string().min(3).max(48) });

const ByCategory = z.array(z.object({ category: z.string(), amount: z.number().int() }));
export const FinanceReport = z
  .object({
    tenantName: z.string(),
    month: z.string(),
    openingBalance: z.number().int(),
    income: z.object({ total: z.number().int(), byCategory: ByCategory }),
    expense: z.object({ total: z.number().int(), byCategory: ByCategory }),
    closingBalance: z.number().int(),
    dues: z.object({
      billed: z.number().int().describe("Bills issued for the month"),
      collected: z.number().int().describe("Paid so far on the month's bills"),
      percentCollected: z.number(),
      receivedInMonth: z.number().int().describe("Dues payments received during the month (any period)"),
      reversedInMonth: z
        .number()
        .int()
        .describe("Dues payments reversed during the month (any period), as the cash book has them"),
    }),
    arrearsTotal: z.number().int().describe("Unpaid on bills up to and including the month"),
    generatedAt: z.string(),
  })
  .openapi("FinanceReport");
