import { OpenAPIRoute } from "chanfana";
import { problemResponses } from "../../http/problem";
import { FanoutBody, SendAccepted } from "../../schemas";
import { fanout } from "../../services/fanout";
import {
  type AppContext,
  accepted,
  ctxOf,
  IDEMPOTENCY_NOTE,
  idempotencyKeyOf,
  jsonBody,
  jsonContent,
} from "../shared";

export class SendFanout extends OpenAPIRoute {
  override schema = {
    tags: ["Fan-out"],
    summary: "Tell up to 1,000 users on one channel, respecting their preferences and quiet hours",
    description: `Push goes to each user's active devices in the tenant; WhatsApp and email to the address given per recipient. A recipient who turned the channel off, has no device or no address is logged as skipped with the reason; messages during a recipient's quiet hours wait until they end unless \`urgent\`. A channel with no provider configured skips everyone (reason channel_unconfigured) rather than failing. The idempotency key should name the message version and the channel: a reused key replays the first send even if the recipient list changed. ${IDEMPOTENCY_NOTE}`,
    request: { body: jsonBody(FanoutBody) },
    responses: {
      "202": jsonContent("Written to the delivery log (queued or skipped rows) and queued", SendAccepted),
      ...problemResponses(400, 415, 422, 503),
    },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const result = await fanout(ctxOf(c), {
      ...body,
      idempotencyKey: idempotencyKeyOf(c, body.idempotencyKey),
    });
    return accepted(c, result);
  }
}
