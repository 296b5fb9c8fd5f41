import { and, eq, sql } from "drizzle-orm";
import { type Channel, devices, messages, type Platform, type SkipReason } from "../db/schema";
import type { Payload } from "../payloads";
import { normalizeMsisdn } from "../phone";
import { channelConfigured } from "./channels";
import type { ServiceContext } from "./context";
import { type EnqueueResult, enqueue, type OutgoingMessage } from "./outbox";
import { DEFAULT_PREFERENCES, preferencesOf, quietUntil } from "./preferences";
import { devicesWhere } from "./push";
import { reserveSlots } from "./whatsapp";

export interface FanoutRecipient {
  userId: string;
  /** The WhatsApp number or email address for those channels; absent for push (devices are known here). */
  address?: string;
}

export interface FanoutInput {
  /** What is being told, e.g. `rt-01:pengumuman:<id>`: the delivery summary is read by it. */
  reference: string;
  tenant: string;
  channel: Channel;
  /** Staff-marked urgent news goes out during quiet hours too. */
  urgent: boolean;
  recipients: FanoutRecipient[];
  push?: { title: string; body: string; data: Record<string, string> & { screen: string; id: string } };
  whatsapp?: { message: string };
  email?: { subject: string; html?: string; text: string };
  idempotencyKey?: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * One channel of a fan-out to users: each recipient's preferences decide whether they get it (a
 * recipient left out is logged as `skipped` with the reason), and their quiet hours hold it until
 * they end (unless urgent). WhatsApp is paced on the gateway's clock; messages held for quiet hours
 * are spread at the same rate from the moment the quiet hours end.
 *
 * The idempotency key names the message version and the channel (the caller's choice of key), so the
 * fingerprint covers only what the key is for: a retry after the audience grew replays the first send
 * instead of failing with a conflict.
 */
export async function fanout(ctx: ServiceContext, input: FanoutInput): Promise<EnqueueResult> {
  const { idempotencyKey } = input;
  return enqueue(ctx, {
    operation: "fanout",
    idempotencyKey,
    request: { reference: input.reference, tenant: input.tenant, channel: input.channel },
    build: () => build(ctx, input),
  });
}

type DeviceToken = { token: string; platform: Platform };

/** The active push devices of these users in this tenant, by user id. */
async function activeDeviceTokens(
  ctx: ServiceContext,
  tenant: string,
  userIds: string[],
): Promise<Map<string, DeviceToken[]>> {
  const tokens = new Map<string, DeviceToken[]>();
  const rows = await devicesWhere(ctx, devices.userId, userIds, tenant);
  for (const row of rows.filter((d) => d.active)) {
    tokens.set(row.userId, [...(tokens.get(row.userId) ?? []), { token: row.token, platform: row.platform }]);
  }
  return tokens;
}

async function build(ctx: ServiceContext, input: FanoutInput): Promise<OutgoingMessage[]> {
  const now = ctx.now();
  const { channel, reference } = input;
  const recipients = [...new Map(input.recipients.map((r) => [r.userId, r])).values()];
  const prefs = await preferencesOf(
    ctx,
    recipients.map((r) => r.userId),
  );
  const configured = channelConfigured(ctx, channel);
  const tokens =
    channel === "push" && configured
      ? await activeDeviceTokens(
          ctx,
          input.tenant,
          recipients.map((r) => r.userId),
        )
      : new Map<string, DeviceToken[]>();

  const out: OutgoingMessage[] = [];
  const skip = (r: FanoutRecipient, reason: SkipReason) =>
    out.push({
      channel,
      recipient: r.address ?? r.userId,
      reference,
      userId: r.userId,
      skipped: reason,
      payload: {} as Payload,
    });
  const whatsappNow: OutgoingMessage[] = [];
  const whatsappHeld: OutgoingMessage[] = [];
  for (const r of recipients) {
    const pref = prefs.get(r.userId) ?? DEFAULT_PREFERENCES;
    if (!configured) {
      skip(r, "channel_unconfigured");
      continue;
    }
    if (!pref[channel]) {
      skip(r, "opted_out");
      continue;
    }
    const held = input.urgent ? null : quietUntil(pref, now);
    const common = { channel, reference, userId: r.userId, ...(held ? { notBefore: held } : {}) };
    if (channel === "push" && input.push) {
      const own = tokens.get(r.userId) ?? [];
      if (own.length === 0) {
        skip(r, "no_device");
        continue;
      }
      for (const device of own) {
        out.push({
          ...common,
          recipient: device.token,
          subject: input.push.title,
          payload: { token: device.token, platform: device.platform, ...input.push },
        });
      }
    } else if (channel === "whatsapp" && input.whatsapp) {
      if (!r.address) {
        skip(r, "no_address");
        continue;
      }
      const to = normalizeMsisdn(r.address);
      if (!to) {
        skip(r, "invalid_address");
        continue;
      }
      const message = { ...common, recipient: to, payload: { to, message: input.whatsapp.message } };
      (held ? whatsappHeld : whatsappNow).push(message);
    } else if (channel === "email" && input.email) {
      if (!r.address) {
        skip(r, "no_address");
        continue;
      }
      if (!EMAIL.test(r.address)) {
        skip(r, "invalid_address");
        continue;
      }
      out.push({
        ...common,
        recipient: r.address,
        subject: input.email.subject,
        payload: { to: r.address, ...input.email },
      });
    }
  }
  if (whatsappNow.length > 0) {
    const { start, interval } = await reserveSlots(ctx, whatsappNow.length);
    whatsappNow.forEach((m, i) => {
      m.notBefore = new Date(start + Math.floor(i * interval));
    });
  }
  const interval = 60_000 / ctx.config.whatsappRatePerMinute;
  whatsappHeld.forEach((m, i) => {
    m.notBefore = new Date((m.notBefore?.getTime() ?? now.getTime()) + Math.floor(i * interval));
  });
  return [...out, ...whatsappNow, ...whatsappHeld];
}

export interface ChannelSummary {
  total: number;
  queued: number;
  /** Of the queued: waiting for a later time (the recipient's quiet hours, or WhatsApp pacing). */
  scheduled: number;
  sent: number;
  failed: number;
  skipped: number;
  skippedReasons: Record<string, number>;
}

const emptySummary = (): ChannelSummary => ({
  total: 0,
  queued: 0,
  scheduled: 0,
  sent: 0,
  failed: 0,
  skipped: 0,
  skippedReasons: {},
});

const BUCKET = {
  queued: "queued",
  sending: "queued",
  retrying: "queued",
  sent: "sent",
  failed: "failed",
  dead: "failed",
  skipped: "skipped",
} as const;

/** Per channel, what became of everything sent under `reference`, straight from the delivery log. */
export async function summaryOf(ctx: ServiceContext, reference: string) {
  const nowIso = ctx.now().toISOString();
  const rows = await ctx.db
    .select({
      channel: messages.channel,
      status: messages.status,
      reason: sql<string | null>`CASE WHEN ${messages.status} = 'skipped' THEN ${messages.lastError} END`,
      count: sql<number>`count(*)`,
      scheduled: sql<number>`sum(CASE WHEN ${messages.notBefore} > ${nowIso} THEN 1 ELSE 0 END)`,
    })
    .from(messages)
    .where(and(eq(messages.reference, reference)))
    .groupBy(
      messages.channel,
      messages.status,
      sql`CASE WHEN ${messages.status} = 'skipped' THEN ${messages.lastError} END`,
    )
    .all();
  const channels = { push: emptySummary(), whatsapp: emptySummary(), email: emptySummary() };
  for (const row of rows) {
    const summary = channels[row.channel];
    const bucket = BUCKET[row.status];
    summary.total += row.count;
    summary[bucket] += row.count;
    if (bucket === "queued") {
      summary.scheduled += row.scheduled ?? 0;
    }
    if (bucket === "skipped" && row.reason) {
      summary.skippedReasons[row.reason] = (summary.skippedReasons[row.reason] ?? 0) + row.count;
    }
  }
  return { reference, channels };
}
