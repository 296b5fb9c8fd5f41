import type { TenantCtx } from "../../core/context";
import { log } from "../../core/http/log";
import type { FanoutChannel, FanoutInput, PushData } from "../../platform/notify";
import { notifyFor } from "../../platform/notify";
import { membersWithContact } from "../identity/service";
import { unitsByIds } from "../kependudukan/service";

/** Recipients per call to the notification service (its limit is 1,000). */
export const FANOUT_CHUNK = 500;

export interface Member {
  userId: string;
  email: string | null;
  whatsapp: string | null;
}

/** Everyone in the tenant, or only those whose house is in one of `blocks`. */
export async function audienceOf(ctx: TenantCtx, blocks: readonly string[] | null): Promise<Member[]> {
  const members = await membersWithContact({ ctx });
  if (!blocks) {
    return members;
  }
  const units = await unitsByIds({ ctx, ids: members.flatMap((m) => (m.unitId ? [m.unitId] : [])) });
  const wanted = new Set(blocks);
  return members.filter((m) => {
    const unit = m.unitId ? units.get(m.unitId) : undefined;
    return unit !== undefined && wanted.has(unit.block);
  });
}

export interface Message {
  /** `<tenant id>:<kind>:<id>:v<version>`: the delivery summary's key, and the idempotency keys' stem. */
  reference: string;
  urgent: boolean;
  push?: { title: string; body: string; data: PushData };
  whatsapp?: { message: string };
  email?: { subject: string; html?: string; text: string };
}

/**
 * Sends one message on each of its channels to `members`, in chunks, each chunk with an idempotency
 * key naming the version, the channel and the chunk: a retry (the staff's double click, the hourly
 * job) sends nothing twice. True when every chunk was accepted; false (logged) when the notification
 * service could not take it, so the caller keeps the fan-out owed.
 */
export async function fanOut(ctx: TenantCtx, members: readonly Member[], message: Message): Promise<boolean> {
  const client = notifyFor(ctx.env);
  const channels = (["push", "whatsapp", "email"] as const).filter((c) => message[c] !== undefined);
  try {
    for (const channel of channels) {
      const recipients = members.map((m) => ({ userId: m.userId, ...address(m, channel) }));
      for (let part = 0; part * FANOUT_CHUNK < recipients.length; part++) {
        const input: FanoutInput = {
          reference: message.reference,
          tenant: ctx.tenant.slug,
          channel,
          urgent: message.urgent,
          recipients: recipients.slice(part * FANOUT_CHUNK, (part + 1) * FANOUT_CHUNK),
          idempotencyKey: `${message.reference}:${channel}:${part}`,
          [channel]: message[channel],
        };
        await client.fanout(input);
      }
    }
    return true;
  } catch (error) {
    log("warn", "konten.fanout_failed", {
      requestId: ctx.requestId,
      reference: message.reference,
      error: error instanceof Error ? error.message : String(error),
    });
    return false;
  }
}

function address(member: Member, channel: FanoutChannel): { address?: string } {
  const value = channel === "email" ? member.email : channel === "whatsapp" ? member.whatsapp : null;
  return value ? { address: value } : {};
}
