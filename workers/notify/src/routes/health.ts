import { OpenAPIRoute } from "chanfana";
import { z } from "zod";
import { channelConfigured } from "../services/channels";
import { type AppContext, jsonContent } from "./shared";

export class Health extends OpenAPIRoute {
  override schema = {
    tags: ["Service"],
    summary: "Health check (no key needed)",
    responses: {
      "200": jsonContent(
        "The service is up; which channels have a provider configured",
        z.object({
          status: z.literal("ok"),
          channels: z.object({ email: z.boolean(), push: z.boolean(), whatsapp: z.boolean() }),
        }),
      ),
    },
  };

  override async handle(c: AppContext) {
    const ctx = { config: c.get("config") };
    return c.json({
      status: "ok" as const,
      channels: {
        email: channelConfigured(ctx, "email"),
        push: channelConfigured(ctx, "push"),
        whatsapp: channelConfigured(ctx, "whatsapp"),
      },
    });
  }
}
