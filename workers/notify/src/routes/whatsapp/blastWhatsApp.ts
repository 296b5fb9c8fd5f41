import { OpenAPIRoute } from "chanfana";
import { problemResponses } from "../../http/problem";
import { SendAccepted, WhatsAppBlastBody } from "../../schemas";
import { blastWhatsApp } from "../../services/whatsapp";
import {
  type AppContext,
  accepted,
  ctxOf,
  IDEMPOTENCY_NOTE,
  idempotencyKeyOf,
  jsonBody,
  jsonContent,
} from "../shared";

export class BlastWhatsApp extends OpenAPIRoute {
  override schema = {
    tags: ["WhatsApp"],
    summary: "Queue one WhatsApp message per recipient (up to 1,000), paced to the gateway's rate",
    description: `\`{{name}}\` in the message is replaced by the recipient's variables. Messages are spread over time at WHATSAPP_RATE_PER_MINUTE; list them with GET /v1/messages?batchId=. ${IDEMPOTENCY_NOTE}`,
    request: { body: jsonBody(WhatsAppBlastBody) },
    responses: {
      "202": jsonContent("Written to the delivery log (one entry per recipient) and queued", SendAccepted),
      ...problemResponses(400, 415, 422, 503),
    },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const result = await blastWhatsApp(ctxOf(c), {
      ...body,
      idempotencyKey: idempotencyKeyOf(c, body.idempotencyKey),
    });
    return accepted(c, result);
  }
}
