import { fromHono } from "chanfana";
import { Hono } from "hono";
import { handleError } from "./http/errorHandler";
import type { HonoEnv } from "./http/honoEnv";
import { jsonBodyGuard, requestContext, requireInternalKey } from "./http/middleware";
import { languageOf, problemResponse } from "./http/problem";
import { RegisterDevice } from "./routes/devices/registerDevice";
import { UnregisterDevice } from "./routes/devices/unregisterDevice";
import { SendEmail } from "./routes/emails/sendEmail";
import { SendRawEmail } from "./routes/emails/sendRawEmail";
import { GetDeliverySummary } from "./routes/fanout/getSummary";
import { SendFanout } from "./routes/fanout/sendFanout";
import { Health } from "./routes/health";
import { GetMessage } from "./routes/messages/getMessage";
import { ListMessages } from "./routes/messages/listMessages";
import { RetryMessage } from "./routes/messages/retryMessage";
import { GetPreferences } from "./routes/preferences/getPreferences";
import { PutPreferences } from "./routes/preferences/putPreferences";
import { SendPush } from "./routes/push/sendPush";
import { Stats } from "./routes/stats";
import { GetTemplate } from "./routes/templates/getTemplate";
import { ListTemplates } from "./routes/templates/listTemplates";
import { PreviewTemplate } from "./routes/templates/previewTemplate";
import { PutTemplate } from "./routes/templates/putTemplate";
import { BlastWhatsApp } from "./routes/whatsapp/blastWhatsApp";
import { SendWhatsApp } from "./routes/whatsapp/sendWhatsApp";

export function createApp() {
  const app = new Hono<HonoEnv>();
  app.use("*", requestContext, requireInternalKey, jsonBodyGuard);

  const api = fromHono(app, {
    docs_url: null,
    redoc_url: null,
    openapi_url: "/openapi.json",
    passthroughErrors: true,
    schema: {
      info: {
        title: "Warga notification service",
        version: "1.0.0",
        description:
          "Email, push and WhatsApp, queued, logged and retried. Every route except /health needs X-Service-Internal-Key.",
      },
    },
  });
  api.registry.registerComponent("securitySchemes", "internalKey", {
    type: "apiKey",
    in: "header",
    name: "X-Service-Internal-Key",
  });

  api.get("/health", Health);
  api.post("/v1/emails/send", SendEmail);
  api.post("/v1/emails/raw", SendRawEmail);
  api.post("/v1/push/send", SendPush);
  api.post("/v1/whatsapp/send", SendWhatsApp);
  api.post("/v1/whatsapp/blast", BlastWhatsApp);
  api.get("/v1/templates", ListTemplates);
  api.get("/v1/templates/:code", GetTemplate);
  api.put("/v1/templates/:code", PutTemplate);
  api.post("/v1/templates/:code/preview", PreviewTemplate);
  api.post("/v1/devices", RegisterDevice);
  api.delete("/v1/devices/:token", UnregisterDevice);
  api.post("/v1/fanout", SendFanout);
  api.get("/v1/fanout/summary", GetDeliverySummary);
  api.get("/v1/preferences/:userId", GetPreferences);
  api.put("/v1/preferences/:userId", PutPreferences);
  api.get("/v1/messages", ListMessages);
  api.get("/v1/messages/:id", GetMessage);
  api.post("/v1/messages/:id/retry", RetryMessage);
  api.get("/v1/stats", Stats);

  app.notFound((c) =>
    problemResponse({
      status: 404,
      code: "route_not_found",
      detail: `No route for ${c.req.method} ${c.req.path}.`,
      lang: languageOf(c.req.header("Accept-Language")),
      requestId: c.get("requestId"),
    }),
  );
  app.onError(handleError);
  return app;
}
