import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { Invalid } from "../../../core/errors";
import { checkMultipart, imageFromFile, readForm } from "../../../core/files";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { multipartWalkInPhoto, Visitor } from "../schemas";
import { attachWalkInPhoto } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "Attach a photo to a walk-in",
  description:
    "The guard (satpam) and community staff, with `tamu` on, when registering a walk-in or right after. " +
    "A multipart upload (`file`): JPEG, PNG or WebP recognised by its bytes, at most 5 MB, metadata " +
    "stripped; stored under the community. A second photo replaces the first. 400 `not_walk_in` for a " +
    "resident's own registration; 415 `unsupported_image_type` for another format; 413 `file_too_large`. " +
    "The gate, staff and the host's household read it at GET /api/visitor/:id/foto. Audited.",
  request: { params: IdParam, body: multipartWalkInPhoto },
  responses: { 200: json(Visitor), ...problems(400, 401, 403, 404, 413, 415) },
};

export class AttachWalkInPhoto extends Endpoint {
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
    const upload = await imageFromFile(file);
    return c.json(await attachWalkInPhoto({ ctx: tenantCtx(c), id: params.id, upload }));
  }
}
