import { and, inArray, isNull, lte, sql } from "drizzle-orm";
import type { TenantCtx } from "../../../core/context";
import { rupiah } from "../../../core/format";
import { log } from "../../../core/http/log";
import { DAY_MS } from "../../../core/time";
import { notifyFor } from "../../../platform/notify";
import { membersWithContact } from "../../identity/service";
import { reminderSendAfter } from "../periods";
import { duesReminders } from "../tables";
import { arrears } from "./arrears";
import type { ReminderInput } from "./schemas";

/** At most one reminder per unit in this window. */
const REMINDER_GAP_MS = 3 * DAY_MS;

interface Recipient {
  userId: string;
  name: string;
  email: string | null;
  whatsapp: string | null;
}

/** Resident accounts with a way to reach them, per unit: one read of the tenant's members. */
async function recipientsByUnit(ctx: TenantCtx, unitIds: ReadonlySet<string>) {
  const byUnit = new Map<string, Recipient[]>();
  for (const member of await membersWithContact({ ctx })) {
    // A member with a house is a resident of it, whatever duties they also hold.
    if (!member.unitId || !unitIds.has(member.unitId)) {
      continue;
    }
    if (!(member.whatsapp || member.email)) {
      continue;
    }
    const list = byUnit.get(member.unitId) ?? [];
    list.push({ userId: member.userId, name: member.name, email: member.email, whatsapp: member.whatsapp });
    byUnit.set(member.unitId, list);
  }
  return byUnit;
}

/**
 * PAYMENT_REMINDER to one resident: WhatsApp when they have a number, else the email template. The
 * idempotency key names the unit's reminder request, so a repeated run sends nothing new.
 */
async function remind(
  ctx: TenantCtx,
  to: Recipient,
  owed: { amount: number; oldestPeriod: string },
  requestKey: string,
): Promise<boolean> {
  const client = notifyFor(ctx.env);
  const amount = rupiah(owed.amount);
  const paymentUrl = `${ctx.config.APP_URL}/iuran`;
  const idempotencyKey = `dues-reminder:${ctx.tenant.slug}:${requestKey}:${to.userId}`;
  try {
    if (to.whatsapp) {
      await client.sendWhatsApp({
        to: to.whatsapp,
        message:
          `Halo ${to.name}, iuran ${ctx.tenant.name} sebesar ${amount} (sejak ${owed.oldestPeriod}) belum ` +
          `kami terima. Bayar melalui ${paymentUrl}. Abaikan pesan ini jika Anda sudah membayar.`,
        idempotencyKey,
      });
    } else if (to.email) {
      await client.sendEmail({
        template: "PAYMENT_REMINDER",
        to: to.email,
        data: {
          name: to.name,
          tenantName: ctx.tenant.name,
          period: owed.oldestPeriod,
          amount,
          dueDate: "secepatnya",
          paymentUrl,
        },
        idempotencyKey,
      });
    }
    return true;
  } catch (error) {
    log("warn", "dues_reminder_failed", {
      requestId: ctx.requestId,
      key: idempotencyKey,
      error: String(error),
    });
    return false;
  }
}

/** Sends the held or due reminders of `unitIds` and marks them sent. */
async function deliver(ctx: TenantCtx, rows: { unitId: string; requestedAt: string }[], now: Date) {
  if (rows.length === 0) {
    return 0;
  }
  const owedBy = new Map((await arrears({ ctx, now })).items.map((item) => [item.unitId, item]));
  const recipients = await recipientsByUnit(ctx, new Set(rows.map((r) => r.unitId)));
  let sent = 0;
  const done: string[] = [];
  for (const row of rows) {
    const owed = owedBy.get(row.unitId);
    // Paid meanwhile: the reminder is no longer owed; it is settled without a message.
    if (owed) {
      const results = await Promise.all(
        (recipients.get(row.unitId) ?? []).map((to) =>
          remind(
            ctx,
            to,
            { amount: owed.owed, oldestPeriod: owed.oldestPeriod },
            `${row.unitId}:${row.requestedAt}`,
          ),
        ),
      );
      if (results.length && results.every((ok) => !ok)) {
        continue; // the notification service is down: stays pending for the hourly job
      }
      sent += results.some(Boolean) ? 1 : 0;
    }
    done.push(row.unitId);
  }
  for (let i = 0; i < done.length; i += 90) {
    await ctx.db
      .update(duesReminders)
      .set({ sentAt: now.toISOString() })
      .where(and(inArray(duesReminders.unitId, done.slice(i, i + 90)), isNull(duesReminders.sentAt)));
  }
  return sent;
}

/**
 * `POST /api/iuran/pengingat`: reminds the residents of units in arrears (all, or `unitIds`). A unit is
 * reminded at most once per 3 days, decided by one conditional upsert per unit (two requests at once
 * cannot both win). Between 21:00 and 07:00 WIB nothing is sent: the reminders wait for 07:00 and the
 * hourly job sends them then.
 */
export async function sendReminders({ ctx, input }: { ctx: TenantCtx; input: ReminderInput }) {
  const now = ctx.now();
  const inArrears = (await arrears({ ctx, now })).items;
  const wanted = input.unitIds ? new Set(input.unitIds) : null;
  const owing = wanted ? inArrears.filter((item) => wanted.has(item.unitId)) : inArrears;
  const noArrears = wanted ? wanted.size - owing.length : 0;
  const recipients = await recipientsByUnit(ctx, new Set(owing.map((o) => o.unitId)));
  const reachable = owing.filter((o) => recipients.has(o.unitId));
  const sendAfter = reminderSendAfter(now);
  const requestedAt = now.toISOString();
  const cutoff = new Date(now.getTime() - REMINDER_GAP_MS).toISOString();
  const accepted: string[] = [];
  for (let i = 0; i < reachable.length; i += 20) {
    const rows = await ctx.db
      .insert(duesReminders)
      .values(
        reachable.slice(i, i + 20).map((o) => ({
          unitId: o.unitId,
          requestedAt,
          sendAfter: sendAfter.toISOString(),
          sentAt: null,
        })),
      )
      .onConflictDoUpdate({
        target: duesReminders.unitId,
        set: {
          requestedAt: sql`excluded.requested_at`,
          sendAfter: sql`excluded.send_after`,
          sentAt: null,
        },
        setWhere: lte(duesReminders.requestedAt, cutoff),
      })
      .returning({ unitId: duesReminders.unitId });
    accepted.push(...rows.map((r) => r.unitId));
  }
  const held = sendAfter.getTime() > now.getTime();
  const sentNow = held
    ? 0
    : await deliver(
        ctx,
        accepted.map((unitId) => ({ unitId, requestedAt })),
        now,
      );
  return {
    queued: accepted.length,
    sentNow,
    heldUntil: held ? sendAfter.toISOString() : null,
    skipped: {
      noArrears,
      recentlyReminded: reachable.length - accepted.length,
      noRecipient: owing.length - reachable.length,
    },
  };
}

/** Hourly: sends the reminders whose quiet hours are over (and retries those the service refused). */
export async function releaseHeldReminders(ctx: TenantCtx, scheduledAt: Date) {
  const due = await ctx.db
    .select({ unitId: duesReminders.unitId, requestedAt: duesReminders.requestedAt })
    .from(duesReminders)
    .where(and(isNull(duesReminders.sentAt), lte(duesReminders.sendAfter, scheduledAt.toISOString())));
  if (reminderSendAfter(scheduledAt).getTime() > scheduledAt.getTime()) {
    return { due: due.length, sent: 0 };
  }
  return { due: due.length, sent: await deliver(ctx, due, scheduledAt) };
}
