import { z } from "zod";

// The finance module's zod schemas: each folder's own (iuran/, kampanye/, kas/, anggaran/, laporan/)
// and the field primitives (schemas-shared.ts) re-exported here, plus the module-wide settings'. Routes
// import them from here; a verb inside a folder imports its folder's schemas.ts.
export * from "./anggaran/schemas";
export * from "./iuran/schemas";
export * from "./kampanye/schemas";
export * from "./kas/schemas";
export * from "./laporan/schemas";
export * from "./schemas-shared";

// --- settings ----------------------------------------------------------------------------------

export const FinanceSettingsInput = z.object({
  transparansi: z.boolean().optional(),
  expenseApprovalThreshold: z.number().int().min(0).max(1_000_000_000_000).optional(),
  billEmptyUnits: z
    .boolean()
    .optional()
    .describe("Bill per-unit dues to units marked kosong (empty) too; off unless set"),
});
export type FinanceSettingsInput = z.infer<typeof FinanceSettingsInput>;
export const FinanceSettings = z
  .object({
    transparansi: z.boolean(),
    expenseApprovalThreshold: z.number().int(),
    billEmptyUnits: z.boolean().describe("Units marked kosong (empty) are billed per-unit dues"),
    updatedAt: z.string().nullable(),
  })
  .openapi("FinanceSettings");
