import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, json, problems } from "../../../core/http/openapi";
import { IssueWithoutRwInput, Letter } from "../schemas";
import { issueWithoutRw } from "../workflow";

const schema = {
  tags: ["Surat"],
  summary: "Issue a finished letter without the RW's acknowledgement",
  description:
    "Staff (bendahara, sekretaris, admin), with `surat` on. For a finished letter waiting for the linked " +
    "RW's acknowledgement: the RT decides to issue it without waiting any longer. The letter records " +
    "who, when and the reason (`rwAcknowledgement.status` tanpa_rw), leaves the RW's queue, and the " +
    "resident may download the PDF (without the RW's Mengetahui) and is told it is ready. 409 " +
    "`invalid_transition` (with `allowedNext`) when the letter is not waiting for the RW or changed " +
    "meanwhile. Audited.",
  request: {
    params: IdParam,
    body: { content: { "application/json": { schema: IssueWithoutRwInput } } },
  },
  responses: { 200: json(Letter), ...problems(400, 401, 403, 404, 409) },
};

export class IssueWithoutRw extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params, body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await issueWithoutRw({ ctx: tenantCtx(c), id: params.id, input: body }));
  }
}
