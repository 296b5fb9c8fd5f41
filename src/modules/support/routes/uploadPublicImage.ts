import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { readImageUpload } from "../../../core/files";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { uploadPublicImage } from "../files";
import { multipartImage, ReplyTokenParam, Upload } from "../schemas";

export class UploadPublicImage extends Endpoint {
  override schema = {
    tags: ["Support (public)"],
    summary: "Upload an image for a login-free reply; JPEG, PNG or WebP, at most 5 MB",
    security: [],
    request: { params: ReplyTokenParam, body: multipartImage },
    responses: { 201: json(Upload, "Stored"), ...problems(400, 404, 413, 415, 429) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const file = await readImageUpload(c.req.raw);
    return c.json(
      await uploadPublicImage({ ctx: platformCtx(c), input: { token: params.reply_token, file } }),
      201,
    );
  }
}
