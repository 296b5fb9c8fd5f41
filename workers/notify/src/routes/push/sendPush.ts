import { OpenAPIRoute } from "chanfana";
import { problemResponses } from "../../http/problem";
import { SendAccepted, SendPushBody } from "../../schemas";
import { sendPush } from "../../services/push";
import {
  type AppContext,
  accepted,
  ctxOf,
  IDEMPOTENCY_NOTE,
  idempotencyKeyOf,
  jsonBody,
  jsonContent,
} from "../shared";

export class SendPush extends OpenAPIRoute {
  override schema = {
    tags: ["Push"],
    summary: "Queue a push notification to users' active devices or to explicit tokens",
    description: `data.screen and data.id tell the app which screen to open (announcement, news, complaint, ...). Users without an active device yield no message ids. ${IDEMPOTENCY_NOTE}`,
    request: { body: jsonBody(SendPushBody) },
    responses: {
      "202": jsonContent("Written to the delivery log and queued, one message per device", SendAccepted),
      ...problemResponses(400, 415, 422, 503),
    },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const result = await sendPush(ctxOf(c), {
      ...body,
      idempotencyKey: idempotencyKeyOf(c, body.idempotencyKey),
    });
    return accepted(c, result);
  }
}
