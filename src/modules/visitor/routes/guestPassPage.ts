import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { DomainError, statusOfKind } from "../../../core/errors";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { htmlAnswer, problems } from "../../../core/http/openapi";
import { guestPassNotFound, guestPassPage, guestPassUnavailable } from "../../../pages/guest-pass";
import { pageLanguage } from "../../../pages/layout";
import { guestPass } from "../pass-link";

const schema = {
  tags: ["Pages"],
  summary: "Show a guest's pass: the QR, name, visit, community and state",
  description:
    "The link carries the signed pass itself (the QR's content), never the request's id, so it cannot be guessed; it is a secret URL part (kept out of logs, answered `no-store`). The page shows the QR only while the pass is valid; a used, expired or declined pass says so. An unknown or forged pass is a 404 page, the guest book switched off a 403 page, and a closed community a 410 `tenant_closed` page. Indonesian unless `?lang=en` or an `Accept-Language` that puts English first.",
  security: [],
  request: {
    params: z.object({ pass: z.string().min(1).max(2000) }),
    query: z.object({ lang: z.enum(["id", "en"]).optional() }),
  },
  responses: {
    200: htmlAnswer("The pass and where it stands"),
    403: htmlAnswer("The community is suspended or its guest book is switched off"),
    404: htmlAnswer("No pass of ours"),
    410: htmlAnswer("The community has closed"),
    ...problems(400),
  },
};

export class GuestPassPage extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const lang = pageLanguage(c);
    try {
      const pass = await guestPass({ ctx: platformCtx(c), pass: params.pass });
      return pass ? c.html(guestPassPage(pass, lang)) : c.html(guestPassNotFound(lang), 404);
    } catch (error) {
      // Whoever opens it holds a phone, not an API client: a page, with the status a problem would carry.
      if (error instanceof DomainError) {
        const page = error.kind === "not_found" ? guestPassNotFound(lang) : guestPassUnavailable(lang);
        return c.html(page, statusOfKind[error.kind]);
      }
      throw error;
    }
  }
}
