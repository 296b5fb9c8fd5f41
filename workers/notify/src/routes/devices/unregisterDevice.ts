import { OpenAPIRoute } from "chanfana";
import { z } from "zod";
import { problemResponses } from "../../http/problem";
import { unregisterDevice } from "../../services/devices";
import { type AppContext, ctxOf } from "../shared";

export class UnregisterDevice extends OpenAPIRoute {
  override schema = {
    tags: ["Devices"],
    summary: "Forget a device push token (logout)",
    request: { params: z.object({ token: z.string().min(1).max(4096) }) },
    responses: { "204": { description: "Removed" }, ...problemResponses(404) },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    await unregisterDevice(ctxOf(c), params.token);
    return c.body(null, 204);
  }
}
