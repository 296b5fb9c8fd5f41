import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { Invalid } from "../../../core/errors";
import { checkMultipart, imageFromFile, readForm } from "../../../core/files";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { Line } from "../../../core/schemas";
import { multipartPhoto, UploadedPhoto } from "../schemas";
import { addPhoto } from "../service";

const Caption = Line(300, 0).optional();

const schema = {
  tags: ["Galeri"],
  summary: "Add a photo to an album",
  description:
    "Secretary and admin. A multipart upload (`file`, optional `caption`): JPEG, PNG or WebP " +
    "recognised by its bytes, at most 5 MB, metadata stripped. An album holds at most 300 photos: 409 " +
    "`too_many_photos`. 415 `unsupported_image_type` for another format; 413 `file_too_large`.",
  request: { params: IdParam, body: multipartPhoto },
  responses: { 201: json(UploadedPhoto, "Stored"), ...problems(400, 401, 403, 404, 409, 413, 415) },
};

export class AddPhoto extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    checkMultipart(c.req.raw);
    const form = await readForm(c.req.raw);
    const file = form.get("file");
    if (file === null || typeof file === "string") {
      throw new Invalid("file_missing", "The photo goes in the multipart field `file`.", [
        { field: "file", message: "required" },
      ]);
    }
    const rawCaption = form.get("caption");
    const caption = Caption.safeParse(typeof rawCaption === "string" ? rawCaption : undefined);
    if (!caption.success) {
      throw new Invalid("invalid_input", "The caption is one line of at most 300 characters.", [
        { field: "caption", message: "at most 300 characters, no control characters" },
      ]);
    }
    const upload = await imageFromFile(file);
    const input = { upload, caption: caption.data || null };
    return c.json(await addPhoto({ ctx: tenantCtx(c), id: params.id, input }), 201);
  }
}
