import { OpenAPIRoute } from "chanfana";
import { z } from "zod";
import { problemResponses } from "../../http/problem";
import { unregisterDevice } from "../../services/devices";
import { type AppContext, ctxOf } from "../shared";

export class UnregisterDevice extends OpenAPIRoute {
  override schema = {
    tags: ["Devices"],
    summary: "Forget a device push token (logout)",
    description: "With `userId`, the token is removed only if it is registered to that user (404 otherwise).",
    request: {
      params: z.object({ token: z.string().min(1).max(4096) }),
      query: z.object({ userId: z.string().min(1).max(128).optional() }),
    },
    responses: { "204": { description: "Removed" }, ...problemResponses(404) },
  };

  override async handle(c: AppContext) {
    const { params, query } = await this.getValidatedData<typeof this.schema>();
    await unregisterDevice(ctxOf(c), params.token, query.userId);
    return c.body(null, 204);
  }
}
