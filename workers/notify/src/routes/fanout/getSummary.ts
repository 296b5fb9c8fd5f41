import { OpenAPIRoute } from "chanfana";
import { problemResponses } from "../../http/problem";
import { DeliverySummary, SummaryQuery } from "../../schemas";
import { summaryOf } from "../../services/fanout";
import { type AppContext, ctxOf, jsonContent } from "../shared";

export class GetDeliverySummary extends OpenAPIRoute {
  override schema = {
    tags: ["Fan-out"],
    summary: "Per channel: queued (and of those scheduled for later), sent, failed, skipped with reasons",
    request: { query: SummaryQuery },
    responses: {
      "200": jsonContent("Counts from the delivery log", DeliverySummary),
      ...problemResponses(400),
    },
  };

  override async handle(c: AppContext) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    return c.json(await summaryOf(ctxOf(c), query.reference));
  }
}
