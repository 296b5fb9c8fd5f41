import { OpenAPIRoute } from "chanfana";
import { problemResponses } from "../../http/problem";
import { RawEmailBody, SendAccepted } from "../../schemas";
import { sendRawEmail } from "../../services/emails";
import {
  type AppContext,
  accepted,
  ctxOf,
  IDEMPOTENCY_NOTE,
  idempotencyKeyOf,
  jsonBody,
  jsonContent,
} from "../shared";

export class SendRawEmail extends OpenAPIRoute {
  override schema = {
    tags: ["Email"],
    summary: "Queue an email whose subject and body the caller supplies",
    description: IDEMPOTENCY_NOTE,
    request: { body: jsonBody(RawEmailBody) },
    responses: {
      "202": jsonContent("Written to the delivery log and queued", SendAccepted),
      ...problemResponses(400, 415, 422, 503),
    },
  };

  override async handle(c: AppContext) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const result = await sendRawEmail(ctxOf(c), {
      ...body,
      idempotencyKey: idempotencyKeyOf(c, body.idempotencyKey),
    });
    return accepted(c, result);
  }
}
