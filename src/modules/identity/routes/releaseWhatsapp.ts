import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { platformCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { releaseWhatsapp } from "../contacts";
import { ReleaseWhatsappInput, WhatsappReleased } from "../schemas";

const schema = {
  tags: ["Platform: operations"],
  summary: "Take a disputed WhatsApp number's proof away from the account holding it",
  description:
    "Platform operators only. The operator's decision when a person shows that a number proven on " +
    "another account is theirs: that account keeps the number for messages but no longer proves it, " +
    "so the person can prove it on their own account. Audited with the reason. 404 when no account " +
    "has proven the number.",
  request: { body: { content: { "application/json": { schema: ReleaseWhatsappInput } } } },
  responses: { 200: json(WhatsappReleased), ...problems(400, 401, 403, 404) },
};

export class ReleaseWhatsapp extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    return c.json(await releaseWhatsapp({ ctx: platformCtx(c), input: body }));
  }
}
