import type { PlatformCtx } from "../../core/context";
import { RateLimited } from "../../core/errors";
import { log } from "../../core/http/log";
import { notifyFor } from "../../platform/notify";
import type { Defer } from "./background";
import { loginAlertRateLimit } from "./limits";
import { magicLinkUrl, newOneTimeToken, TOKEN_TTL_SECONDS } from "./oneTimeTokens";
import type { UserRow } from "./service";

/**
 * Issue 31, N1: when wrong passwords for one account pass the account-wide ceiling (limits.ts), its
 * owner hears of it by email and WhatsApp, with a one-tap sign-in link (a magic link, which the
 * ceiling never slows), so a guessing attack cannot keep them out and they know to change the
 * password. At most one notice an hour per account; sent after the answer, like the magic link.
 */
export function alertOwnerOfGuessing(ctx: PlatformCtx, user: UserRow, defer: Defer | undefined): void {
  if (!defer || user.status !== "active" || (!user.email && !user.whatsapp)) {
    return;
  }
  defer("sign_in_alert", async () => {
    try {
      await loginAlertRateLimit(ctx.env, [{ policy: "login-alert:account", subject: user.id }]);
    } catch (error) {
      if (error instanceof RateLimited) {
        return;
      }
      throw error;
    }
    const issued = await newOneTimeToken(ctx, {
      purpose: "magic_link",
      userId: user.id,
      data: { tenant: null },
    });
    await ctx.platform.batch([issued.insert]);
    const url = magicLinkUrl(ctx.env, issued.token);
    const minutes = TOKEN_TTL_SECONDS.magic_link / 60;
    const text =
      `Halo ${user.name}, ada banyak percobaan masuk dengan kata sandi yang salah ke akun Anda. ` +
      `Kami memperlambat percobaan itu. Jika itu bukan Anda, masuk dengan tautan sekali pakai ini ` +
      `(berlaku ${minutes} menit) lalu ganti kata sandi Anda:\n${url}`;
    const notify = notifyFor(ctx.env);
    const key = `sign-in-alert:${issued.id}`;
    const sends: Promise<unknown>[] = [];
    if (user.email) {
      sends.push(
        notify.sendRawEmail({
          to: user.email,
          subject: "Percobaan masuk yang mencurigakan ke akun Anda",
          text,
          idempotencyKey: `${key}:email`,
        }),
      );
    }
    if (user.whatsapp) {
      sends.push(notify.sendWhatsApp({ to: user.whatsapp, message: text, idempotencyKey: `${key}:wa` }));
    }
    const results = await Promise.allSettled(sends);
    for (const result of results) {
      if (result.status === "rejected") {
        log("warn", "sign_in_alert_not_sent", {
          requestId: ctx.requestId,
          error: result.reason instanceof Error ? result.reason.message : String(result.reason),
        });
      }
    }
  });
}
