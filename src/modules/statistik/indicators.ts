import type { TenantCtx } from "../../core/context";
import { computeMany, type Indicator } from "../../core/indicators";

/**
 * The indicators of the modules mounted (`input.indicators`) that this tenant has switched on. Those
 * defined as a query go to D1 in one batch (one round trip); only the others are computed one by one,
 * beside it.
 */
export async function computeIndicators({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { indicators: readonly Indicator[] };
}) {
  const active = input.indicators.filter((i) => !i.flag || ctx.tenant.flags[i.flag]);
  const batched = active.filter((i) => i.query);
  const alone = active.filter((i) => !i.query);
  const [batchedValues, aloneValues] = await Promise.all([
    computeMany(ctx, batched),
    Promise.all(alone.map((i) => i.compute(ctx))),
  ]);
  const values = new Map<Indicator, number>([
    ...batched.map((i, n): [Indicator, number] => [i, batchedValues[n] ?? 0]),
    ...alone.map((i, n): [Indicator, number] => [i, aloneValues[n] ?? 0]),
  ]);
  return {
    indicators: active.map((i) => ({ key: i.key, label: i.label, value: values.get(i) ?? 0 })),
    generatedAt: ctx.now().toISOString(),
  };
}
