import { eq } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { requireUser } from "../../core/http/access";
import { nowIso } from "../../core/time";
import type { FinanceSettingsInput } from "./schemas";
import { financeSettings } from "./tables";

/** Expenses below this many rupiah are approved on submission unless the admin sets otherwise. */
export const DEFAULT_APPROVAL_THRESHOLD = 500_000;

/** The finance settings' row as a query, for a batch; `financeSettingsOf` reads what it returns. */
export function financeSettingsQuery(db: TenantCtx["db"]) {
  return db.select().from(financeSettings).where(eq(financeSettings.id, 1));
}

/** The settings with their defaults, from the row (none until the admin first saves them). */
export function financeSettingsOf(row: typeof financeSettings.$inferSelect | undefined) {
  return {
    transparansi: row?.transparansi ?? false,
    expenseApprovalThreshold: row?.expenseApprovalThreshold ?? DEFAULT_APPROVAL_THRESHOLD,
    billEmptyUnits: row?.billEmptyUnits ?? false,
    updatedAt: row?.updatedAt ?? null,
  };
}

export async function loadFinanceSettings(ctx: Pick<TenantCtx, "db">) {
  return financeSettingsOf(await financeSettingsQuery(ctx.db).get());
}

export async function getFinanceSettings({ ctx }: { ctx: TenantCtx }) {
  return loadFinanceSettings(ctx);
}

export async function updateFinanceSettings({ ctx, input }: { ctx: TenantCtx; input: FinanceSettingsInput }) {
  const current = await loadFinanceSettings(ctx);
  const next = {
    transparansi: input.transparansi ?? current.transparansi,
    expenseApprovalThreshold: input.expenseApprovalThreshold ?? current.expenseApprovalThreshold,
    billEmptyUnits: input.billEmptyUnits ?? current.billEmptyUnits,
    updatedAt: nowIso(ctx),
    updatedBy: requireUser(ctx).userId,
  };
  await ctx.db.batch([
    ctx.db
      .insert(financeSettings)
      .values({ id: 1, ...next })
      .onConflictDoUpdate({ target: financeSettings.id, set: next }),
    audit(ctx, {
      action: "keuangan.settings",
      targetType: "finance_settings",
      targetId: "1",
      detail: {
        transparansi: next.transparansi,
        expenseApprovalThreshold: next.expenseApprovalThreshold,
        billEmptyUnits: next.billEmptyUnits,
      },
    }),
  ]);
  return loadFinanceSettings(ctx);
}
