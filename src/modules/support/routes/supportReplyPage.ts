import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { DomainError } from "../../../core/errors";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { htmlAnswer, problems } from "../../../core/http/openapi";
import { pageLanguage } from "../../../pages/layout";
import { replyPageText, supportReplyNotFound, supportReplyPage } from "../../../pages/support-reply";
import { getPublicTicket } from "../public";
import { ReplyTokenParam } from "../schemas";

const schema = {
  tags: ["Pages"],
  summary: "Show the login-free ticket page",
  description:
    "Public, no sign-in: the reply token from the ticket's emails is the credential (not logged, not " +
    "cached). An HTML page with the ticket's thread and a reply form with an optional image, posting " +
    "to `POST /support/reply/{reply_token}`. In the language Accept-Language asks for; 404 page for " +
    "an unknown token.",
  security: [],
  request: { params: ReplyTokenParam, query: z.object({ terkirim: z.string().max(1).optional() }) },
  responses: {
    200: htmlAnswer("The thread and the form"),
    404: htmlAnswer("Unknown token"),
    ...problems(400),
  },
};

export class SupportReplyPage extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    const ctx = platformCtx(c);
    const lang = pageLanguage(c);
    try {
      const thread = await getPublicTicket({ ctx, input: { token: params.reply_token } });
      const notice = query.terkirim ? { kind: "ok" as const, text: replyPageText(lang).sent } : undefined;
      return c.html(supportReplyPage(params.reply_token, thread, lang, notice));
    } catch (error) {
      if (error instanceof DomainError && error.kind === "not_found") {
        return c.html(supportReplyNotFound(lang), 404);
      }
      throw error;
    }
  }
}
