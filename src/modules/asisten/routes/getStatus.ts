import type { Context } from "hono";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { json, problems } from "../../../core/http/openapi";
import { AssistantStatus } from "../schemas";
import { assistantStatus } from "../service";

const schema = {
  tags: ["Asisten"],
  summary: "Get the assistant's status",
  description:
    "Residents only. Whether the assistant answers, and how: with a language model (`llm`) or with " +
    "its built-in intents (`builtin`) when no model is configured, so a client can show or hide the " +
    "assistant and set expectations.",
  responses: { 200: json(AssistantStatus), ...problems(401, 403) },
};

export class GetAssistantStatus extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    return c.json(assistantStatus({ ctx: tenantCtx(c) }));
  }
}
