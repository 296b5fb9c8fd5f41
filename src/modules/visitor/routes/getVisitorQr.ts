import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { visitorQrSvg } from "../service";

const schema = {
  tags: ["Tamu"],
  summary: "Get a guest pass as a QR code",
  description:
    "Members with `tamu` on, for a registration they may read (a resident: their own; another's is " +
    "404). Answers the approved pass as an SVG QR code to show at the gate, never cached. 409 " +
    "`not_approved` until the request is approved.",
  request: { params: IdParam },
  responses: {
    200: { description: "QR code", content: { "image/svg+xml": { schema: { type: "string" as const } } } },
    ...problems(401, 403, 404, 409),
  },
};

export class GetVisitorQr extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const svg = await visitorQrSvg({ ctx: tenantCtx(c), id: params.id });
    return c.body(svg, 200, { "Content-Type": "image/svg+xml", "Cache-Control": "private, no-store" });
  }
}
