import { OpenAPIRoute } from "chanfana";
import { z } from "zod";
import { problemResponses } from "../http/problem";
import { deliveryStats } from "../services/stats";
import { type AppContext, ctxOf, jsonContent } from "./shared";

const Failure = z.object({
  messageId: z.string(),
  status: z.enum(["failed", "dead"]),
  attempts: z.number().int(),
  error: z.string().nullable(),
  at: z.string(),
});

const Alert = z.object({
  cause: z.string().describe("channel|provider|template (or raw)|the error with ids and numbers taken out"),
  hour: z.string().describe("UTC hour of this count, YYYY-MM-DDTHH"),
  channel: z.enum(["email", "push", "whatsapp"]),
  provider: z.string(),
  kind: z.string().describe("The template code, or raw"),
  status: z.enum(["retrying", "failed", "dead"]),
  error: z.string(),
  count: z.number().int().describe("Messages with this cause in this hour"),
  firstAt: z.string(),
  lastAt: z.string(),
  lastMessageId: z.string(),
  emailed: z
    .boolean()
    .describe("Whether the operators were emailed (once per cause per hour; never for an alert email)"),
});

export const StatsSchema = z.object({
  backlog: z.object({
    queued: z.number().int(),
    sending: z.number().int(),
    retrying: z.number().int(),
    total: z.number().int(),
    oldestAt: z.string().nullable(),
  }),
  deadLetters: z.number().int(),
  failed: z.number().int(),
  lastFailures: z.object({ email: z.array(Failure), push: z.array(Failure), whatsapp: z.array(Failure) }),
  alerts: z.array(Alert).describe("Operator alerts of the last 24 hours, newest first"),
});

export class Stats extends OpenAPIRoute {
  override schema = {
    tags: ["Service"],
    summary:
      "Delivery pipeline stats: backlog, dead letters, the last failures per channel, the operator alerts of the last day",
    responses: { "200": jsonContent("Current figures", StatsSchema), ...problemResponses(401) },
  };

  override async handle(c: AppContext) {
    return c.json(await deliveryStats(ctxOf(c)));
  }
}
