import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { readImageUpload } from "../../../core/files";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { uploadPublicImage } from "../files";
import { multipartImage, ReplyTokenParam, Upload } from "../schemas";

const schema = {
  tags: ["Support (public)"],
  summary: "Upload an image for a reply by token",
  description:
    "Public, no sign-in: the reply token from the ticket's emails is the credential (not logged, not " +
    "cached). A multipart upload (`file`): JPEG, PNG or WebP recognised by its bytes, at most 5 MB, " +
    "for the ticket's next reply. 415 `unsupported_image_type`; 413 `file_too_large`; 404 for an " +
    "unknown token; 429 `rate_limited`.",
  security: [],
  request: { params: ReplyTokenParam, body: multipartImage },
  responses: { 201: json(Upload, "Stored"), ...problems(400, 404, 413, 415, 429) },
};

export class UploadPublicImage extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const file = await readImageUpload(c.req.raw);
    return c.json(
      await uploadPublicImage({ ctx: platformCtx(c), input: { token: params.reply_token, file } }),
      201,
    );
  }
}
