import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { ChatInput, ChatReply } from "../schemas";
import { chat, chatStream } from "../service";

const schema = {
  tags: ["Asisten"],
  summary: "Ask the assistant",
  description:
    "Residents only. Sends the conversation so far (at most 20 turns, 8,000 characters) and answers " +
    "`{ reply, sources }`. With `Accept: text/event-stream` the reply streams as server-sent events: " +
    "`token` ({ text }) as it is written, then `done` ({ reply, sources }); a failure after the first " +
    "event is an `error` event ({ code }). The assistant reads only the caller's own data and the " +
    "community's published information, and never changes anything. A daily budget per resident: 429 " +
    "`rate_limited` until the next Jakarta midnight; 503 `assistant_unavailable` when the model " +
    "cannot be reached.",
  request: { body: { content: { "application/json": { schema: ChatInput } } } },
  responses: {
    200: {
      description: "The reply, as JSON or as a stream of server-sent events",
      content: {
        "application/json": { schema: ChatReply },
        "text/event-stream": { schema: z.string() },
      },
    },
    ...problems(400, 401, 403, 429, 503),
  },
};

export class Chat extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { body } = await this.getValidatedData<typeof this.schema>();
    const ctx = tenantCtx(c);
    if (c.req.header("Accept")?.includes("text/event-stream")) {
      return new Response(await chatStream({ ctx, input: body }), {
        headers: {
          "Content-Type": "text/event-stream; charset=utf-8",
          "Cache-Control": "no-store",
          "X-Accel-Buffering": "no",
        },
      });
    }
    return c.json(await chat({ ctx, input: body }));
  }
}
