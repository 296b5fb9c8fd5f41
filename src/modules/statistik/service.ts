import type { TenantCtx } from "../../core/context";
import type { Indicator } from "../../core/indicators";

export async function computeIndicators(ctx: TenantCtx, indicators: readonly Indicator[]) {
  const active = indicators.filter((i) => !i.flag || ctx.tenant.flags[i.flag]);
  const values = await Promise.all(active.map((i) => i.compute(ctx)));
  return {
    indicators: active.map((i, n) => ({ key: i.key, label: i.label, value: values[n] ?? 0 })),
    generatedAt: new Date().toISOString(),
  };
}
