import type { Context } from "hono";
import { z } from "zod";
import type { HonoEnv } from "../../env";
import { tenantCtx } from "../../http/access";
import { Endpoint } from "../../http/endpoint";
import { IdParam, problems } from "../../http/openapi";
import { serveTenantFile } from "../store";

export class GetFile extends Endpoint {
  override schema = {
    tags: ["Berkas"],
    summary: "A stored image, for its uploader and the roles its purpose allows (others: 404); ETag, 304",
    request: { params: IdParam },
    responses: {
      200: { description: "The image", content: { "image/*": { schema: z.string() } } },
      304: { description: "Not modified (If-None-Match matched the ETag)" },
      ...problems(401, 403, 404),
    },
  };

  override async handle(c: Context<HonoEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    // If-None-Match is read as sent: the verb only compares it with the stored ETag.
    return serveTenantFile({
      ctx: tenantCtx(c),
      id: params.id,
      input: { ifNoneMatch: c.req.header("If-None-Match") ?? null },
    });
  }
}
