import { fromHono } from "chanfana";
import { Hono } from "hono";
import type { HonoEnv } from "./core/env";
import { CORE_ERROR_CODES, type CoreErrorCode, type ErrorCode } from "./core/errors";
import { type GuardOptions, guard, type RouteDef } from "./core/http/access";
import type { TypedApp } from "./core/http/client-types";
import { requestContext } from "./core/http/middleware";
import { openapiDocument } from "./core/http/openapi-document";
import { notFound, onError, problemSchema } from "./core/http/problem";
import { secretRoute } from "./core/http/secret";
import type { Job } from "./core/jobs";
import type { AppModule, FileReference } from "./core/module";
import { tenancyModule } from "./core/tenancy/module";
import { asistenModule } from "./modules/asisten";
import { aspirasiModule } from "./modules/aspirasi";
import { auditModule } from "./modules/audit";
import { billingModule } from "./modules/billing";
import { galeriModule } from "./modules/galeri";
import { gateModule } from "./modules/gate";
import { healthModule } from "./modules/health";
import { feedsRwFigures, hierarchyModule, keepFiguresAfterWrite } from "./modules/hierarchy";
import { identityModule } from "./modules/identity";
import { dataExportModule } from "./modules/identity/dataExportModule";
import { kependudukanModule } from "./modules/kependudukan";
import { keuanganModule } from "./modules/keuangan";
import { kontenModule } from "./modules/konten";
import { membersModule } from "./modules/members";
import { musyawarahModule } from "./modules/musyawarah";
import { pasarModule } from "./modules/pasar";
import { archiveImportRunning, platformOpsModule } from "./modules/platform-ops";
import { residentsModule } from "./modules/residents";
import { statistikModule } from "./modules/statistik";
import { supportModule } from "./modules/support";
import { suratModule } from "./modules/surat";
import { tenantsModule } from "./modules/tenants";
import { visitorModule } from "./modules/visitor";
import { devPaymentPage, devPaymentSubmit } from "./pages/dev-payments";
import { swaggerPage } from "./pages/swagger";
import { conditionalHandlers, conditionalModule, type VersionedResource } from "./platform/conditional";
import { idempotency, idempotencyModule } from "./platform/idempotency";
import { type PaymentKindHandler, paymentsModule } from "./platform/payments";
import { fileSweepModule, uploadsModule } from "./platform/uploads";

const featureModules = [
  healthModule,
  identityModule,
  membersModule,
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
  asistenModule,
  billingModule,
  keuanganModule,
  kontenModule,
  uploadsModule,
  galeriModule,
  pasarModule,
  idempotencyModule,
  conditionalModule,
  tenancyModule,
] as const;

const indicators = featureModules.flatMap((m) => m.indicators ?? []);
/**
 * A write to an RT linked to an RW refreshes the RW summary's kept figures of that RT (ADR 0038), on the
 * write routes of the modules whose indicators the summary shows.
 */
const rwFiguresAfterWrite = keepFiguresAfterWrite(indicators);
const rwFigureRoutes = new Set(
  featureModules.filter(feedsRwFigures).flatMap((m): readonly RouteDef[] => m.routes),
);

/** What each module does when one of its payments is settled or reversed (platform/payments). */
export const paymentHandlers: readonly PaymentKindHandler[] = featureModules.flatMap(
  (m): readonly PaymentKindHandler[] => m.payments ?? [],
);

/** Every column of a tenant table that points at stored files: what the daily sweep must not delete. */
export const fileReferences: readonly FileReference[] = featureModules.flatMap(
  (m): readonly FileReference[] => m.fileReferences ?? [],
);

export const modules = [
  ...featureModules,
  statistikModule(indicators),
  hierarchyModule(indicators),
  paymentsModule(paymentHandlers),
  platformOpsModule(featureModules.flatMap((m) => Object.entries(m.personalData ?? {}))),
  dataExportModule(featureModules.flatMap((m) => Object.entries(m.personalData ?? {}))),
  // An archive import writes file rows before the rows pointing at them: no sweep while one runs.
  fileSweepModule(fileReferences, [archiveImportRunning]),
] as const;

/** The whole API as Hono's client sees it: `hc<AppType>(baseUrl)` gives typed calls. */
export type AppType = TypedApp<(typeof modules)[number]["routes"][number]>;

/** Every module's scheduled work, run by the Worker's `scheduled` handler (src/index.ts). */
export const jobs: readonly Job[] = modules.flatMap((m): readonly Job[] => m.jobs ?? []);

/** Every problem code a client can meet: core's own, then each module's `errorCodes` (its errors.ts). */
export const ERROR_CODES: readonly ErrorCode[] = [
  ...CORE_ERROR_CODES,
  ...modules.flatMap((m): readonly ErrorCode[] => m.errorCodes ?? []),
];

/**
 * The codes of `ErrorCode` that are in no list above: a module that adds codes to `ModuleErrorCodes` in
 * its errors.ts but does not hand them to its `defineModule({ errorCodes })`. test/core/errors.test.ts
 * fails to compile unless this is `never`.
 */
export type UnlistedErrorCode = Exclude<
  ErrorCode,
  CoreErrorCode | NonNullable<(typeof modules)[number]["errorCodes"]>[number]
>;

/** The Problem schema of /openapi.json, its `code` one of ERROR_CODES. */
export const ProblemSchema = problemSchema(ERROR_CODES);

/** Every route with its access rule: the table the role-matrix test walks. */
export const routeTable: readonly RouteDef[] = modules.flatMap((m): readonly RouteDef[] => m.routes);

/** Every single resource served with ETag and If-Match (ADR 0035), by its route path. */
export const versionedResources: readonly VersionedResource[] = modules.flatMap(
  (m: AppModule): readonly VersionedResource[] => m.versioned ?? [],
);
const versionedByPath = new Map(versionedResources.map((v) => [v.path, v]));

const guardOptionsOf = new Map<RouteDef, GuardOptions>(
  modules.flatMap((m: AppModule) =>
    m.routes.map((r): [RouteDef, GuardOptions] => [
      r,
      { liveSession: m.liveSession ?? "staff-writes", writesWhenInactive: m.writesWhenInactive ?? false },
    ]),
  ),
);

export function buildApp() {
  const app = new Hono<HonoEnv>();
  app.use("*", requestContext);
  app.onError(onError);
  app.notFound(notFound);
  app.use("/openapi.json", openapiDocument(routeTable, versionedResources));

  // Its files (/swagger-ui/*) are static assets, served without the Worker (wrangler.toml [assets]).
  app.get("/swagger", (c) => c.html(swaggerPage()));
  // The local payment simulator's checkout (ENVIRONMENT=local without gateway keys; 404 elsewhere).
  app.get("/dev/payments/:orderId", devPaymentPage);
  app.post(
    "/dev/payments/:orderId",
    devPaymentSubmit((request, c) => Promise.resolve(app.fetch(request, c.env, c.executionCtx))),
  );

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
          "application/problem+json with a stable `code`; their `title`, `detail` and field messages are " +
          "in the caller's language, Indonesian unless `Accept-Language` ranks English above it " +
          "(`Content-Language` says which, `code` never changes).",
      },
      security: [{ bearerAuth: [] }],
    },
  });
  openapi.registry.register("Problem", ProblemSchema);
  openapi.registry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description:
      "A member's access token. When the member's duties, house or membership changed since it was signed " +
      "(by staff, or by the request itself), the answer carries `X-Warga-Access-Token`: the same sign-in " +
      "with its current standing and the same expiry. Clients should use it from then on; the API serves " +
      "the old one as the membership now stands either way (ADR 0043).",
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
      guard(route.access, guardOptionsOf.get(route)),
      // After the guard, which names the caller and the community the key is scoped to (ADR 0034).
      ...(route.method === "post" ? [idempotency(route.endpoint)] : []),
      // After the answer of a successful write to a linked RT, its kept RW figures (ADR 0038).
      ...(route.method !== "get" && rwFigureRoutes.has(route) ? [rwFiguresAfterWrite] : []),
      // ETag, If-None-Match and If-Match on a versioned resource, after the guard too (ADR 0035).
      ...conditionalHandlers(route, versionedByPath),
      route.endpoint,
    ];
    openapi[route.method](route.path, ...(handlers as [never]));
  }
  return app;
}
