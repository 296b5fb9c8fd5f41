import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { DomainError, type StatusOfKind, statusOfKind } from "../../../core/errors";
import { checkMultipart, type ImageUpload, imageFromFile, readForm } from "../../../core/files";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { binaryPart, htmlAnswer } from "../../../core/http/openapi";
import { type Language, problemText } from "../../../core/i18n";
import { langQuery, pageLanguage } from "../../../pages/layout";
import {
  REPLY_PAGE_MESSAGES,
  replyPageText,
  supportReplyNotFound,
  supportReplyPage,
} from "../../../pages/support-reply";
import { getPublicTicket, replyPublic } from "../public";
import { ReplyTokenParam } from "../schemas";

const schema = {
  tags: ["Pages"],
  summary: "Submit the login-free ticket page's reply form",
  description:
    "Public, no sign-in: the reply token from the ticket's emails is the credential (not logged, not " +
    "cached). The page's form post, with the rules of `POST " +
    "/api/public/support-tickets/{reply_token}/messages`: redirects (303) back to the page with the " +
    "reply added, or answers the page again with the reason (400, 413, 415, 429).",
  security: [],
  request: {
    params: ReplyTokenParam,
    body: {
      content: {
        "multipart/form-data": {
          schema: z.object({
            message: z.string().describe("The reply (required; cut at 5,000 characters)"),
            file: binaryPart("An optional JPEG, PNG or WebP image, at most 5 MB").optional(),
          }),
        },
      },
    },
  },
  responses: {
    303: { description: "Sent; back to the page" },
    400: htmlAnswer("The page again, with the reason"),
    404: htmlAnswer("Unknown token"),
    413: htmlAnswer("The page again: the image is too large"),
    415: htmlAnswer("The page again: not a form upload, or not an image"),
    429: htmlAnswer("The page again: too many replies"),
  },
};

/**
 * The page's form (multipart: `message`, optional `file`), answered with a redirect back to the page
 * (so a reload does not post twice) or with the page and the reason.
 */
export class SubmitSupportReplyPage extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const token = params.reply_token;
    const ctx = platformCtx(c);
    const lang = pageLanguage(c);
    try {
      checkMultipart(c.req.raw);
      const form = await readForm(c.req.raw);
      const message = String(form.get("message") ?? "")
        .trim()
        .slice(0, 5000);
      const file = form.get("file");
      // A form without a chosen file still sends an empty part.
      const upload: ImageUpload | undefined =
        file !== null && typeof file !== "string" && file.size > 0 ? await imageFromFile(file) : undefined;
      if (!message) {
        return await this.again(c, token, lang, replyPageText(lang).empty, 400);
      }
      await replyPublic({ ctx, input: { token, message, upload } });
    } catch (error) {
      if (error instanceof DomainError) {
        if (error.kind === "not_found") {
          return c.html(supportReplyNotFound(lang), 404);
        }
        if (error.extra.retryAfter !== undefined) {
          c.header("Retry-After", String(error.extra.retryAfter));
        }
        const status = statusOfKind[error.kind];
        const fallback = problemText(lang, status, error.code, { title: "", detail: error.message }).detail;
        return this.again(c, token, lang, REPLY_PAGE_MESSAGES[lang][error.code] ?? fallback, status);
      }
      throw error;
    }
    return c.redirect(`/support/reply/${encodeURIComponent(token)}?terkirim=1${langQuery(lang, "&")}`, 303);
  }

  private async again(
    c: Context<RouteEnv>,
    token: string,
    lang: Language,
    text: string,
    status: StatusOfKind,
  ) {
    try {
      const thread = await getPublicTicket({ ctx: platformCtx(c), input: { token } });
      return c.html(supportReplyPage(token, thread, lang, { kind: "error", text }), status);
    } catch (error) {
      // An upload refused before the token was looked up may still carry an unknown token.
      if (error instanceof DomainError && error.kind === "not_found") {
        return c.html(supportReplyNotFound(lang), 404);
      }
      throw error;
    }
  }
}
