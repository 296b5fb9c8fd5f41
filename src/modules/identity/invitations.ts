import type { Duty, TenantCtx } from "../../core/context";
import { clientUrl } from "../../core/env";
import { log } from "../../core/http/log";
import { notifyFor } from "../../platform/notify";
import { resetPasswordUrl } from "./passwordReset";

export type InvitationChannel = "email" | "whatsapp";

export interface InvitationTarget {
  name: string;
  email: string | null;
  whatsapp: string | null;
}

/** Email when the person has one (a button is easier than a long link), else WhatsApp. */
export function invitationChannel(target: InvitationTarget): InvitationChannel | null {
  if (target.email) {
    return "email";
  }
  return target.whatsapp ? "whatsapp" : null;
}

/**
 * Why an invitation was not sent (issue 45): the person has neither an email nor a number
 * (`no_contact`), or the notification service did not take the message (`delivery_failed`). The
 * account and its membership exist either way.
 */
export type NotSentReason = "no_contact" | "delivery_failed";

export interface InvitationResult {
  /** The channel the link actually went by (or was tried on). */
  channel: InvitationChannel | null;
  sent: boolean;
  /** Only when `sent` is false: why, and what staff can do about it (Indonesian, for the console). */
  reason?: NotSentReason;
  hint?: string;
}

const NOT_SENT_HINTS: Record<NotSentReason, string> = {
  no_contact:
    "Tidak ada email atau nomor WhatsApp untuk dikirimi tautan. Tambahkan kontak pada undangan, " +
    "atau berikan kode masuk sekali pakai dari menu Anggota.",
  delivery_failed:
    "Pesan belum terkirim karena layanan notifikasi sedang bermasalah. Kirim ulang nanti, " +
    "atau berikan kode masuk sekali pakai dari menu Anggota.",
};

/** An answer for a link that did not go out, with its reason and what to do. */
export function notSent(channel: InvitationChannel | null, reason: NotSentReason): InvitationResult {
  return { channel, sent: false, reason, hint: NOT_SENT_HINTS[reason] };
}

/**
 * Sends a resident their account link: a set-password link (`token`) for a new account, or a sign-in
 * link for someone who already has a password elsewhere. Returns whether the notification service took
 * it; the account exists either way and staff can re-send from the residents list.
 */
/** What a duty is called in a message to a person (Indonesian, as the community says it). */
const DUTY_WORDS: Record<Duty, string> = {
  admin: "ketua/admin",
  sekretaris: "sekretaris",
  bendahara: "bendahara",
  satpam: "petugas keamanan (satpam)",
};

/** " sebagai sekretaris dan bendahara", or nothing for a plain resident. */
export function dutyPhrase(roles: readonly Duty[] = []): string {
  return roles.length ? ` sebagai ${roles.map((r) => DUTY_WORDS[r]).join(" dan ")}` : "";
}

type InvitingCtx = Pick<TenantCtx, "env" | "requestId"> & { tenant: { name: string } };

export async function deliverInvitation(
  ctx: InvitingCtx,
  input: { target: InvitationTarget; token: string | null; roles?: readonly Duty[]; idempotencyKey: string },
): Promise<InvitationResult> {
  const { env } = ctx;
  const tenantName = ctx.tenant.name;
  const as = dutyPhrase(input.roles);
  const channel = invitationChannel(input.target);
  const url = input.token ? resetPasswordUrl(env, input.token) : `${clientUrl(env)}/login`;
  try {
    if (channel === "email" && input.target.email) {
      await notifyFor(env).sendEmail({
        template: "WELCOME",
        to: input.target.email,
        data: { name: input.target.name, tenantName, loginUrl: url, ...(as ? { duty: as.trim() } : {}) },
        idempotencyKey: input.idempotencyKey,
      });
      return { channel, sent: true };
    }
    if (channel === "whatsapp" && input.target.whatsapp) {
      const action = input.token ? "Buat kata sandi Anda (berlaku 7 hari)" : "Masuk";
      await notifyFor(env).sendWhatsApp({
        to: input.target.whatsapp,
        message:
          `Halo ${input.target.name}, akun Anda di ${tenantName}${as} sudah aktif. ` +
          `${action} melalui tautan berikut:\n${url}\n\nMasuk dengan nomor WhatsApp ini.`,
        idempotencyKey: input.idempotencyKey,
      });
      return { channel, sent: true };
    }
    return notSent(null, "no_contact");
  } catch (error) {
    log("error", "invitation_not_sent", {
      requestId: ctx.requestId,
      channel,
      error: error instanceof Error ? error.message : String(error),
    });
    return notSent(channel, "delivery_failed");
  }
}

/** Where a join link points: the client's page, which asks the person and posts the token to the API. */
export function joinUrl(env: { APP_URL: string; CLIENT_URL?: string }, token: string): string {
  return `${clientUrl(env)}/join?token=${encodeURIComponent(token)}`;
}

/**
 * Asks the holder of an existing account whether they want to join the community whose staff approved
 * an application naming their email or number. Nobody is a member until they accept the link.
 */
export async function deliverJoinLink(
  ctx: InvitingCtx,
  input: { target: InvitationTarget; token: string; roles?: readonly Duty[]; idempotencyKey: string },
): Promise<InvitationResult> {
  const { env } = ctx;
  const url = joinUrl(env, input.token);
  const as = dutyPhrase(input.roles);
  const body =
    (as
      ? `Anda diundang bergabung dengan ${ctx.tenant.name}${as}, memakai kontak akun Anda. `
      : `Pengurus ${ctx.tenant.name} menyetujui pendaftaran warga yang memakai kontak akun Anda. `) +
    `Jika ini memang Anda, bergabunglah melalui tautan berikut (berlaku 7 hari):\n${url}\n\n` +
    "Jika Anda tidak mendaftar, abaikan pesan ini: Anda tidak akan ditambahkan.";
  const channel = invitationChannel(input.target);
  try {
    if (channel === "email" && input.target.email) {
      await notifyFor(env).sendRawEmail({
        to: input.target.email,
        subject: `Bergabung dengan ${ctx.tenant.name}?`,
        text: `Halo ${input.target.name},\n\n${body}`,
        idempotencyKey: input.idempotencyKey,
      });
      return { channel, sent: true };
    }
    if (channel === "whatsapp" && input.target.whatsapp) {
      await notifyFor(env).sendWhatsApp({
        to: input.target.whatsapp,
        message: `Halo ${input.target.name}, ${body}`,
        idempotencyKey: input.idempotencyKey,
      });
      return { channel, sent: true };
    }
    return notSent(null, "no_contact");
  } catch (error) {
    log("error", "join_link_not_sent", {
      requestId: ctx.requestId,
      channel,
      error: error instanceof Error ? error.message : String(error),
    });
    return notSent(channel, "delivery_failed");
  }
}
