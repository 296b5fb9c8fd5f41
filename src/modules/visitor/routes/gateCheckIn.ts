import type { Context } from "hono";
import type { HonoEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { GateResult, GateScanInput } from "../schemas";
import { passGate } from "../service";

export class GateCheckIn extends Endpoint {
  override schema = {
    tags: ["Tamu"],
    summary: "Check a guest in by the scanned pass (approved, inside its window, not yet in)",
    request: { body: { content: { "application/json": { schema: GateScanInput } } } },
    responses: { 200: json(GateResult), ...problems(400, 401, 403, 404, 409) },
  };

  override async handle(c: Context<HonoEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await passGate({ ctx: tenantCtx(c), input: { qr: body.qr, direction: "in" } }));
  }
}
