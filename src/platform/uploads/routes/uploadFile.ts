import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { Invalid } from "../../../core/errors";
import { checkMultipart, imageFromFile, readForm } from "../../../core/files";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { FilePurposeSchema, multipartFile, UploadedFile } from "../schemas";
import { uploadTenantFile } from "../store";

const schema = {
  tags: ["Berkas"],
  summary: "Upload an image for a purpose",
  description:
    "Members, within what each purpose allows their duties (403 `forbidden_purpose`). A multipart " +
    "upload (`file`, `purpose`: proof of payment, receipt, cover, gallery, complaint evidence, …): " +
    "JPEG, PNG or WebP recognised by its bytes, at most 5 MB, metadata stripped. Answers the file's " +
    "id and URL to put in the record that uses it; an upload no record points at is deleted after 24 " +
    "hours. 415 `unsupported_image_type`; 413 `file_too_large`; 400 `invalid_file_purpose`; 429 " +
    "`rate_limited`.",
  request: { body: multipartFile },
  responses: { 201: json(UploadedFile, "Stored"), ...problems(400, 401, 403, 413, 415, 429) },
};

export class UploadFile extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    await this.getValidatedData<typeof this.schema>();
    checkMultipart(c.req.raw);
    const form = await readForm(c.req.raw);
    const purpose = FilePurposeSchema.safeParse(form.get("purpose"));
    if (!purpose.success) {
      throw new Invalid("invalid_input", "Say what the file is for in the multipart field `purpose`.", [
        { field: "purpose", message: `one of ${FilePurposeSchema.options.join(", ")}` },
      ]);
    }
    const file = form.get("file");
    if (file === null || typeof file === "string") {
      throw new Invalid("file_missing", "The image goes in the multipart field `file`.", [
        { field: "file", message: "required" },
      ]);
    }
    const upload = await imageFromFile(file);
    return c.json(
      await uploadTenantFile({ ctx: tenantCtx(c), input: { upload, purpose: purpose.data } }),
      201,
    );
  }
}
