import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../../../core/env";
import { DomainError, type ErrorCode, statusOfKind } from "../../../core/errors";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { resetPasswordDone, resetPasswordForm } from "../../../pages/reset-password";
import { resetPassword } from "../passwordReset";

const html = (description: string) => ({ description, content: { "text/html": { schema: z.string() } } });

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  password_too_short: "Kata sandi minimal 8 karakter.",
  token_invalid: "Tautan ini tidak berlaku. Minta tautan baru.",
  token_expired: "Tautan ini sudah kedaluwarsa. Minta tautan baru.",
  token_used: "Tautan ini sudah pernah dipakai. Minta tautan baru.",
  rate_limited: "Terlalu banyak percobaan. Coba lagi beberapa menit lagi.",
};

export class ResetPasswordPage extends Endpoint {
  override schema = {
    tags: ["Pages"],
    summary: "The password reset (and invitation) page: a form for the token in the query",
    security: [],
    request: { query: z.object({ token: z.string().max(200).default("") }) },
    responses: { 200: html("The form"), ...problems(400) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.html(resetPasswordForm(query.token));
  }
}

/** The form's POST (application/x-www-form-urlencoded), answered with a page, not JSON. */
export class SubmitResetPasswordPage extends Endpoint {
  override schema = {
    tags: ["Pages"],
    summary: "Submit the reset page's form",
    security: [],
    responses: {
      200: html("Password set"),
      400: html("The form again, with the reason"),
      429: html("The form again: too many attempts"),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const field = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
    const token = field("token").slice(0, 200);
    const password = field("password").slice(0, 200);
    if (password !== field("confirm")) {
      return c.html(resetPasswordForm(token, "Kedua kata sandi tidak sama."), 400);
    }
    const ctx = platformCtx(c);
    try {
      await resetPassword({ ctx, input: { token, password } });
    } catch (error) {
      if (error instanceof DomainError) {
        if (error.extra.retryAfter !== undefined) {
          c.header("Retry-After", String(error.extra.retryAfter));
        }
        return c.html(
          resetPasswordForm(token, MESSAGES[error.code] ?? error.message),
          statusOfKind[error.kind],
        );
      }
      throw error;
    }
    return c.html(resetPasswordDone(`${ctx.env.CLIENT_URL.replace(/\/$/, "")}/login`));
  }
}
