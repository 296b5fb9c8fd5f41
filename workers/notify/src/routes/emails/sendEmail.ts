import { OpenAPIRoute } from "chanfana";
import { problemResponses } from "../../http/problem";
import { SendAccepted, SendEmailBody } from "../../schemas";
import { sendTemplateEmail } from "../../services/emails";
import {
  type AppContext,
  accepted,
  ctxOf,
  IDEMPOTENCY_NOTE,
  idempotencyKeyOf,
  jsonBody,
  jsonContent,
} from "../shared";

export class SendEmail extends OpenAPIRoute {
  override schema = {
    tags: ["Email"],
    summary: "Render a stored template and queue it, one message per recipient",
    description: IDEMPOTENCY_NOTE,
    request: { body: jsonBody(SendEmailBody) },
    responses: {
      "202": jsonContent("Written to the delivery log and queued", SendAccepted),
      ...problemResponses(400, 404, 415, 422, 503),
    },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const result = await sendTemplateEmail(ctxOf(c), {
      ...body,
      idempotencyKey: idempotencyKeyOf(c, body.idempotencyKey),
    });
    return accepted(c, result);
  }
}
