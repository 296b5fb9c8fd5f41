import type { Context } from "hono";
import { clientUrl, type HonoEnv } from "../../../core/env";
import { DomainError, statusOfKind } from "../../../core/errors";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { htmlAnswer } from "../../../core/http/openapi";
import { problemText } from "../../../core/i18n";
import { pageLanguage } from "../../../pages/layout";
import { RESET_PAGE_MESSAGES, resetPasswordDone, resetPasswordForm } from "../../../pages/reset-password";
import { resetPassword } from "../passwordReset";

/** The form's POST (application/x-www-form-urlencoded), answered with a page, not JSON. */
export class SubmitResetPasswordPage extends Endpoint {
  override schema = {
    tags: ["Pages"],
    summary: "Submit the password reset page",
    description:
      "Public HTML form post (`token`, `password`, `confirm`), the page's counterpart of `POST " +
      "/api/auth/reset-password` with the same rules: it ends every session of the user. Answers a " +
      "confirmation page with a link to sign in, or the form again with the reason (400: passwords " +
      "differ, too short, a link invalid, expired or used; 429 when limited).",
    security: [],
    responses: {
      200: htmlAnswer("Password set"),
      400: htmlAnswer("The form again, with the reason"),
      429: htmlAnswer("The form again: too many attempts"),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const lang = pageLanguage(c);
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const field = (name: string) => (typeof form[name] === "string" ? (form[name] as string) : "");
    const token = field("token").slice(0, 200);
    const password = field("password").slice(0, 200);
    if (password !== field("confirm")) {
      return c.html(resetPasswordForm(token, lang, RESET_PAGE_MESSAGES[lang].password_mismatch), 400);
    }
    const ctx = platformCtx(c);
    try {
      await resetPassword({ ctx, input: { token, password } });
    } catch (error) {
      if (error instanceof DomainError) {
        if (error.extra.retryAfter !== undefined) {
          c.header("Retry-After", String(error.extra.retryAfter));
        }
        const status = statusOfKind[error.kind];
        const fallback = problemText(lang, status, error.code, { title: "", detail: error.message }).detail;
        return c.html(
          resetPasswordForm(token, lang, RESET_PAGE_MESSAGES[lang][error.code] ?? fallback),
          status,
        );
      }
      throw error;
    }
    return c.html(resetPasswordDone(`${clientUrl(ctx.env)}/login`, lang));
  }
}
