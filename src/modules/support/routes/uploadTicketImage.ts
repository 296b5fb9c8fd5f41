import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { readImageUpload } from "../../../core/files";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { uploadTenantImage } from "../files";
import { multipartImage, Upload, UploadQuery } from "../schemas";

const schema = {
  tags: ["Support"],
  summary: "Upload an image for a support ticket",
  description:
    "Admin only: the community's support channel to the platform team. A multipart upload (`file`, " +
    "`kind=support-ticket`): JPEG, PNG or WebP recognised by its bytes, at most 5 MB. Answers the " +
    "image's URL for a ticket's or a reply's `attachment_url`. 415 `unsupported_image_type`; 413 " +
    "`file_too_large`.",
  request: { query: UploadQuery, body: multipartImage },
  responses: { 201: json(Upload, "Stored"), ...problems(400, 401, 403, 413, 415) },
};

export class UploadTicketImage extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    await this.getValidatedData<typeof this.schema>();
    const input = await readImageUpload(c.req.raw);
    return c.json(await uploadTenantImage({ ctx: tenantCtx(c), input }), 201);
  }
}
