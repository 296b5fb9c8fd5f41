import { OpenAPIRoute } from "chanfana";
import { z } from "zod";
import { problemResponses } from "../../http/problem";
import { retryDeadMessage } from "../../services/messageLog";
import { type AppContext, ctxOf, jsonContent } from "../shared";

export class RetryMessage extends OpenAPIRoute {
  override schema = {
    tags: ["Delivery log"],
    summary: "Queue a dead (parked) or failed message again (a fresh round of attempts)",
    request: { params: z.object({ id: z.string().min(1).max(64) }) },
    responses: {
      "202": jsonContent("Queued again", z.object({ messageIds: z.array(z.string()) })),
      ...problemResponses(404, 409, 503),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await retryDeadMessage(ctxOf(c), params.id), 202);
  }
}
