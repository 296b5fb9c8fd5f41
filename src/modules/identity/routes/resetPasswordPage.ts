import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../../../core/env";
import { Endpoint } from "../../../core/http/endpoint";
import { htmlAnswer, problems } from "../../../core/http/openapi";
import { pageLanguage } from "../../../pages/layout";
import { resetPasswordForm } from "../../../pages/reset-password";

export class ResetPasswordPage extends Endpoint {
  override schema = {
    tags: ["Pages"],
    summary: "Show the password reset page",
    description:
      "Public HTML page, the target of the reset and invitation emails " +
      "(`{APP_URL}/reset-password?token=…`): a form that posts the token with the new password to `POST " +
      "/reset-password`. Served in the language Accept-Language asks for (Indonesian or English). The " +
      "token is checked only when the form is submitted.",
    security: [],
    request: { query: z.object({ token: z.string().max(200).default("") }) },
    responses: { 200: htmlAnswer("The form"), ...problems(400) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.html(resetPasswordForm(query.token, pageLanguage(c)));
  }
}
