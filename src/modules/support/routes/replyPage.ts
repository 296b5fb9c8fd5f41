import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../../../core/env";
import { DomainError, type ErrorCode, type StatusOfKind, statusOfKind } from "../../../core/errors";
import { checkMultipart, type ImageUpload, imageFromFile, readForm } from "../../../core/files";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { supportReplyNotFound, supportReplyPage } from "../../../pages/support-reply";
import { getPublicTicket, replyPublic } from "../public";
import { ReplyTokenParam } from "../schemas";

const html = (description: string) => ({ description, content: { "text/html": { schema: z.string() } } });

const MESSAGES: Partial<Record<ErrorCode, string>> = {
  file_too_large: "Gambar terlalu besar (maksimal 5 MB).",
  unsupported_image_type: "Hanya gambar JPEG, PNG atau WebP yang dapat dilampirkan.",
  not_multipart: "Formulir tidak lengkap. Muat ulang halaman lalu coba lagi.",
  invalid_multipart: "Formulir tidak lengkap. Muat ulang halaman lalu coba lagi.",
  file_empty: "Berkas gambar kosong.",
  rate_limited: "Terlalu banyak balasan. Coba lagi beberapa menit lagi.",
};

export class SupportReplyPage extends Endpoint {
  override schema = {
    tags: ["Pages"],
    summary: "The login-free ticket page: the thread and a reply form with an optional image",
    security: [],
    request: { params: ReplyTokenParam, query: z.object({ terkirim: z.string().max(1).optional() }) },
    responses: { 200: html("The thread and the form"), 404: html("Unknown token"), ...problems(400) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    const ctx = platformCtx(c);
    try {
      const thread = await getPublicTicket({ ctx, input: { token: params.reply_token } });
      const notice = query.terkirim
        ? { kind: "ok" as const, text: "Balasan Anda sudah terkirim." }
        : undefined;
      return c.html(supportReplyPage(params.reply_token, thread, notice));
    } catch (error) {
      if (error instanceof DomainError && error.kind === "not_found") {
        return c.html(supportReplyNotFound(), 404);
      }
      throw error;
    }
  }
}

/**
 * The page's form (multipart: `message`, optional `file`), answered with a redirect back to the page
 * (so a reload does not post twice) or with the page and the reason.
 */
export class SubmitSupportReplyPage extends Endpoint {
  override schema = {
    tags: ["Pages"],
    summary: "Submit the ticket page's reply form",
    security: [],
    request: { params: ReplyTokenParam },
    responses: {
      303: { description: "Sent; back to the page" },
      400: html("The page again, with the reason"),
      404: html("Unknown token"),
      413: html("The page again: the image is too large"),
      415: html("The page again: not a form upload, or not an image"),
      429: html("The page again: too many replies"),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const token = params.reply_token;
    const ctx = platformCtx(c);
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
        return await this.again(c, token, "Tulis pesan balasan Anda.", 400);
      }
      await replyPublic({ ctx, input: { token, message, upload } });
    } catch (error) {
      if (error instanceof DomainError) {
        if (error.kind === "not_found") {
          return c.html(supportReplyNotFound(), 404);
        }
        if (error.extra.retryAfter !== undefined) {
          c.header("Retry-After", String(error.extra.retryAfter));
        }
        return this.again(c, token, MESSAGES[error.code] ?? error.message, statusOfKind[error.kind]);
      }
      throw error;
    }
    return c.redirect(`/support/reply/${encodeURIComponent(token)}?terkirim=1`, 303);
  }

  private async again(c: Context<HonoEnv>, token: string, text: string, status: StatusOfKind) {
    try {
      const thread = await getPublicTicket({ ctx: platformCtx(c), input: { token } });
      return c.html(supportReplyPage(token, thread, { kind: "error", text }), status);
    } catch (error) {
      // An upload refused before the token was looked up may still carry an unknown token.
      if (error instanceof DomainError && error.kind === "not_found") {
        return c.html(supportReplyNotFound(), 404);
      }
      throw error;
    }
  }
}
