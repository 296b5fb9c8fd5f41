import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { readImageUpload } from "../../../core/files";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { uploadPlatformImage } from "../files";
import { multipartImage, Upload } from "../schemas";

const schema = {
  tags: ["Support (operators)"],
  summary: "Upload an image for an operator response",
  description:
    "Platform operators only. A multipart upload (`file`): JPEG, PNG or WebP recognised by its bytes, " +
    "at most 5 MB; answers its URL for a response's attachments. 415 `unsupported_image_type`; 413 " +
    "`file_too_large`.",
  request: { body: multipartImage },
  responses: { 201: json(Upload, "Stored"), ...problems(400, 401, 403, 413, 415) },
};

export class UploadPlatformImage extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const input = await readImageUpload(c.req.raw);
    return c.json(await uploadPlatformImage({ ctx: platformCtx(c), input }), 201);
  }
}
