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
});

export class Stats extends OpenAPIRoute {
  override schema = {
    tags: ["Service"],
    summary: "Delivery pipeline stats: backlog, dead letters, the last failures per channel",
    responses: { "200": jsonContent("Current figures", StatsSchema), ...problemResponses(401) },
  };

  override async handle(c: AppContext) {
    return c.json(await deliveryStats(ctxOf(c)));
  }
}
