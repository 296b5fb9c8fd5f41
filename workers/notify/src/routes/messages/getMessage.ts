import { OpenAPIRoute } from "chanfana";
import { z } from "zod";
import { problemResponses } from "../../http/problem";
import { MessageDetail } from "../../schemas";
import { getMessage } from "../../services/messageLog";
import { type AppContext, ctxOf, jsonContent } from "../shared";

export class GetMessage extends OpenAPIRoute {
  override schema = {
    tags: ["Delivery log"],
    summary: "One message with every delivery attempt",
    request: { params: z.object({ id: z.string().min(1).max(64) }) },
    responses: {
      "200": jsonContent("The message and its attempts", MessageDetail),
      ...problemResponses(404),
    },
  };

  override async handle(c: AppContext) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    return c.json(await getMessage(ctxOf(c), params.id));
  }
}
