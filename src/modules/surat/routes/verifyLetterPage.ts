import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { DomainError, statusOfKind } from "../../../core/errors";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { htmlAnswer } from "../../../core/http/openapi";
import { pageLanguage } from "../../../pages/layout";
import { letterUnavailablePage, unknownLetterPage, verifiedLetterPage } from "../../../pages/verify-surat";
import { verifyLetter } from "../publish";

const schema = {
  tags: ["Pages"],
  summary: "Show the public verification page of a letter",
  description:
    "Public HTML page that a printed letter's QR code opens (the code is a credential: not logged, " +
    "not cached). Confirms the number, type, date, community and validity of a finished letter, or " +
    "says it was not found; it works with the letters module switched off, since an issued letter " +
    "stays an official document. A suspended community answers 403. In the language Accept-Language " +
    "asks for.",
  security: [],
  request: { params: z.object({ code: z.string().min(1).max(200) }) },
  responses: {
    200: htmlAnswer("The letter is valid"),
    403: htmlAnswer("The community is suspended or its letters are switched off"),
    404: htmlAnswer("No valid letter has this code"),
  },
};

export class VerifyLetterPage extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    c.header("Cache-Control", "no-store");
    const lang = pageLanguage(c);
    try {
      const letter = await verifyLetter({ ctx: platformCtx(c), input: { code: params.code } });
      return letter ? c.html(verifiedLetterPage(letter, lang)) : c.html(unknownLetterPage(lang), 404);
    } catch (error) {
      // Whoever scanned the QR holds paper, not an API client: the answer is a page, with the status
      // problem+json would have carried.
      if (error instanceof DomainError) {
        const page = error.kind === "not_found" ? unknownLetterPage(lang) : letterUnavailablePage(lang);
        return c.html(page, statusOfKind[error.kind]);
      }
      throw error;
    }
  }
}
