import type { TenantCtx } from "../../core/context";
import type { Indicator } from "../../core/indicators";

/** The indicators of the modules mounted (`input.indicators`) that this tenant has switched on. */
export async function computeIndicators({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { indicators: readonly Indicator[] };
}) {
  const active = input.indicators.filter((i) => !i.flag || ctx.tenant.flags[i.flag]);
  const values = await Promise.all(active.map((i) => i.compute(ctx)));
  return {
    indicators: active.map((i, n) => ({ key: i.key, label: i.label, value: values[n] ?? 0 })),
    generatedAt: ctx.now().toISOString(),
  };
}
