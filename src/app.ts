import { fromHono } from "chanfana";
import { Hono } from "hono";
import type { HonoEnv } from "./core/env";
import { guard, type RouteDef } from "./core/http/access";
import type { TypedApp } from "./core/http/client-types";
import { corsForConfiguredOrigins, requestContext, securityHeaders } from "./core/http/middleware";
import { notFound, onError } from "./core/http/problem";
import { secretRoute } from "./core/http/secret";
import type { Job } from "./core/jobs";
import { uploadsModule } from "./core/uploads";
import { aspirasiModule } from "./modules/aspirasi";
import { auditModule } from "./modules/audit";
import { galeriModule } from "./modules/galeri";
import { gateModule } from "./modules/gate";
import { healthModule } from "./modules/health";
import { identityModule } from "./modules/identity";
import { kependudukanModule } from "./modules/kependudukan";
import { musyawarahModule } from "./modules/musyawarah";
import { pasarModule } from "./modules/pasar";
import { residentsModule } from "./modules/residents";
import { statistikModule } from "./modules/statistik";
import { supportModule } from "./modules/support";
import { suratModule } from "./modules/surat";
import { tenantsModule } from "./modules/tenants";
import { visitorModule } from "./modules/visitor";
import { swaggerPage } from "./pages/swagger";

const featureModules = [
  healthModule,
  identityModule,
  tenantsModule,
  kependudukanModule,
  musyawarahModule,
  residentsModule,
  auditModule,
  visitorModule,
  suratModule,
  aspirasiModule,
  gateModule,
  supportModule,
  uploadsModule,
  galeriModule,
  pasarModule,
] as const;

export const modules = [
  ...featureModules,
  statistikModule(featureModules.flatMap((m) => m.indicators ?? [])),
] as const;

/** The whole API as Hono's client sees it: `hc<AppType>(baseUrl)` gives typed calls. */
export type AppType = TypedApp<(typeof modules)[number]["routes"][number]>;

/** Every module's scheduled work, run by the Worker's `scheduled` handler (src/index.ts). */
export const jobs: readonly Job[] = modules.flatMap((m): readonly Job[] => m.jobs ?? []);

/** Every route with its access rule: the table the role-matrix test walks. */
export const routeTable: readonly RouteDef[] = modules.flatMap((m): readonly RouteDef[] => m.routes);

const liveSessionOf = new Map<RouteDef, "always" | "staff-writes">(
  modules.flatMap((m) =>
    m.routes.map((r): [RouteDef, "always" | "staff-writes"] => [r, m.liveSession ?? "staff-writes"]),
  ),
);

export function buildApp() {
  const app = new Hono<HonoEnv>();
  app.use("*", requestContext, securityHeaders, corsForConfiguredOrigins);
  app.onError(onError);
  app.notFound(notFound);

  app.get("/swagger", (c) => c.html(swaggerPage()));
  app.get("/swagger-ui/*", (c) => c.env.ASSETS.fetch(c.req.raw));

  const openapi = fromHono(app, {
    docs_url: null,
    redoc_url: null,
    openapi_url: "/openapi.json",
    openapiVersion: "3.1",
    passthroughErrors: true,
    schema: {
      info: {
        title: "Warga API",
        version: "0.1.0",
        description:
          "System of record for Indonesian neighbourhood associations (RT/RW). Errors are RFC 9457 " +
          "application/problem+json with a stable `code`.",
      },
      security: [{ bearerAuth: [] }],
    },
  });
  openapi.registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
  });
  openapi.registry.registerComponent("securitySchemes", "gateDeviceKey", {
    type: "http",
    scheme: "bearer",
    description: "A gate device's API key, shown once when the device is added.",
  });
  for (const route of routeTable) {
    // chanfana accepts endpoint classes at run time; its Hono typings only know plain handlers.
    const handlers = [
      ...(route.secret ? [secretRoute(route.path, route.secret)] : []),
      guard(route.access, { liveSession: liveSessionOf.get(route) }),
      route.endpoint,
    ];
    openapi[route.method](route.path, ...(handlers as [never]));
  }
  return app;
}
