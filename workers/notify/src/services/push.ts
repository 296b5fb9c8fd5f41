import { and, eq, inArray } from "drizzle-orm";
import { devices, type Platform } from "../db/schema";
import type { PushPayload } from "../payloads";
import { requireChannel } from "./channels";
import type { ServiceContext } from "./context";
import { type EnqueueResult, enqueue } from "./outbox";

export interface SendPushInput {
  userIds?: string[];
  tokens?: string[];
  tenant?: string;
  title: string;
  body: string;
  data: Record<string, string> & { screen: string; id: string };
  idempotencyKey?: string;
}

// D1 allows 100 bound parameters per statement.
const IN_CHUNK = 90;

export async function devicesWhere(
  ctx: ServiceContext,
  column: typeof devices.userId | typeof devices.token,
  values: string[],
  tenant?: string,
) {
  const found: (typeof devices.$inferSelect)[] = [];
  for (let i = 0; i < values.length; i += IN_CHUNK) {
    const part = values.slice(i, i + IN_CHUNK);
    const filter = tenant ? and(inArray(column, part), eq(devices.tenant, tenant)) : inArray(column, part);
    found.push(...(await ctx.db.select().from(devices).where(filter).all()));
  }
  return found;
}

async function targetsOf(
  ctx: ServiceContext,
  input: SendPushInput,
): Promise<{ token: string; platform?: Platform }[]> {
  if (input.userIds) {
    const rows = await devicesWhere(ctx, devices.userId, [...new Set(input.userIds)], input.tenant);
    return rows.filter((d) => d.active).map((d) => ({ token: d.token, platform: d.platform }));
  }
  const tokens = [...new Set(input.tokens ?? [])];
  const known = new Map((await devicesWhere(ctx, devices.token, tokens)).map((d) => [d.token, d]));
  // A token FCM already reported as gone would only fail again.
  return tokens
    .filter((token) => known.get(token)?.active !== false)
    .map((token) => ({ token, platform: known.get(token)?.platform }));
}

export async function sendPush(ctx: ServiceContext, input: SendPushInput): Promise<EnqueueResult> {
  requireChannel(ctx, "push");
  const { idempotencyKey, ...request } = input;
  return enqueue(ctx, {
    operation: "push.send",
    idempotencyKey,
    request,
    build: async () =>
      (await targetsOf(ctx, input)).map((target) => {
        const payload: PushPayload = {
          token: target.token,
          title: input.title,
          body: input.body,
          data: input.data,
        };
        if (target.platform) {
          payload.platform = target.platform;
        }
        return { channel: "push" as const, recipient: target.token, subject: input.title, payload };
      }),
  });
}
