import { asc, eq } from "drizzle-orm";
import { platformAudit } from "../../core/audit";
import type { PlatformCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { Conflict } from "../../core/errors";
import { nowIso } from "../../core/time";
import { billingPlans } from "./platform-tables";
import type { CreatePlanInput } from "./schemas";
import { loadPlan } from "./subscriptions";

export async function listPlans({ ctx, includeInactive }: { ctx: PlatformCtx; includeInactive: boolean }) {
  const rows = await ctx.platform
    .select()
    .from(billingPlans)
    .where(includeInactive ? undefined : eq(billingPlans.active, true))
    .orderBy(asc(billingPlans.pricePerMonth));
  return {
    items: rows.map((p) => ({
      code: p.code,
      name: p.name,
      pricePerMonth: p.pricePerMonth,
      maxResidents: p.maxResidents,
      description: p.description,
      active: p.active,
    })),
  };
}

/** `POST /api/platform/billing/plans`: the operator adds a plan (codes are permanent). */
export async function createPlan({ ctx, input }: { ctx: PlatformCtx; input: CreatePlanInput }) {
  const now = nowIso(ctx);
  try {
    await ctx.platform.batch([
      ctx.platform.insert(billingPlans).values({
        code: input.code,
        name: input.name,
        pricePerMonth: input.pricePerMonth,
        maxResidents: input.maxResidents ?? null,
        description: input.description ?? "",
        updatedAt: now,
      }),
      platformAudit(ctx, {
        action: "billing.plan_created",
        targetType: "billing_plan",
        targetId: input.code,
        tenantId: null,
        detail: { pricePerMonth: input.pricePerMonth, maxResidents: input.maxResidents ?? null },
      }),
    ]);
  } catch (err) {
    if (isUniqueViolation(err, "billing_plans.code")) {
      throw new Conflict("plan_exists", `A plan with the code ${input.code} exists.`);
    }
    throw err;
  }
  const plan = await loadPlan(ctx, input.code);
  return {
    code: plan.code,
    name: plan.name,
    pricePerMonth: plan.pricePerMonth,
    maxResidents: plan.maxResidents,
    description: plan.description,
    active: plan.active,
  };
}
