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
    summary: "The password reset (and invitation) page: a form for the token in the query",
    security: [],
    request: { query: z.object({ token: z.string().max(200).default("") }) },
    responses: { 200: htmlAnswer("The form"), ...problems(400) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.html(resetPasswordForm(query.token, pageLanguage(c)));
  }
}
