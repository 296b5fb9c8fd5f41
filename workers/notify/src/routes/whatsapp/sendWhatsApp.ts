import { OpenAPIRoute } from "chanfana";
import { problemResponses } from "../../http/problem";
import { SendAccepted, WhatsAppSendBody } from "../../schemas";
import { sendWhatsApp } from "../../services/whatsapp";
import {
  type AppContext,
  accepted,
  ctxOf,
  IDEMPOTENCY_NOTE,
  idempotencyKeyOf,
  jsonBody,
  jsonContent,
} from "../shared";

export class SendWhatsApp extends OpenAPIRoute {
  override schema = {
    tags: ["WhatsApp"],
    summary: "Queue one WhatsApp message",
    description: `Numbers may be local (08…) or international (+62…, 62…). ${IDEMPOTENCY_NOTE}`,
    request: { body: jsonBody(WhatsAppSendBody) },
    responses: {
      "202": jsonContent("Written to the delivery log and queued", SendAccepted),
      ...problemResponses(400, 415, 422, 503),
    },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const result = await sendWhatsApp(ctxOf(c), {
      ...body,
      idempotencyKey: idempotencyKeyOf(c, body.idempotencyKey),
    });
    return accepted(c, result);
  }
}
