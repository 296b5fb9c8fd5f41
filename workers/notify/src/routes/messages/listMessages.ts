import { OpenAPIRoute } from "chanfana";
import { problemResponses } from "../../http/problem";
import { ListMessagesQuery, MessageSummary, Page } from "../../schemas";
import { listMessages } from "../../services/messageLog";
import { type AppContext, ctxOf, jsonContent } from "../shared";

export class ListMessages extends OpenAPIRoute {
  override schema = {
    tags: ["Delivery log"],
    summary: "List messages, newest first",
    description:
      "from/to are calendar days (YYYY-MM-DD) in Asia/Jakarta, inclusive. Parked messages are `status=dead`; `tenant` matches the tenant part of the reference.",
    request: { query: ListMessagesQuery },
    responses: { "200": jsonContent("A page of messages", Page(MessageSummary)), ...problemResponses(400) },
  };

  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await listMessages(ctxOf(c), query));
  }
}
