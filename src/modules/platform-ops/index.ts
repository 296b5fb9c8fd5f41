import { ROLES, tenantAccess } from "../../core/http/access";
import { CRON } from "../../core/jobs";
import { defineModule, type PersonalColumns } from "../../core/module";
import { archiveJob } from "./archive-exports";
import { usePersonalDeclarations } from "./erasure";
import { PLATFORM_OPS_ERROR_CODES } from "./errors";
import { DownloadPlatformArchive } from "./routes/downloadPlatformArchive";
import { DownloadTenantArchive } from "./routes/downloadTenantArchive";
import { ErasePerson } from "./routes/erasePerson";
import { GetNotificationMessage } from "./routes/getNotificationMessage";
import { GetPlatformArchive } from "./routes/getPlatformArchive";
import { GetPlatformHealth } from "./routes/getPlatformHealth";
import { GetTenantArchive } from "./routes/getTenantArchive";
import { ImportArchive } from "./routes/importArchive";
import { ListErasures } from "./routes/listErasures";
import { ListNotificationMessages } from "./routes/listNotificationMessages";
import { ListPlatformArchives } from "./routes/listPlatformArchives";
import { ListTenantArchives } from "./routes/listTenantArchives";
import { RequestPlatformExport } from "./routes/requestPlatformExport";
import { RequestTenantExport } from "./routes/requestTenantExport";
import { RetryNotificationMessage } from "./routes/retryNotificationMessage";

const platform = { scope: "platform" } as const;
const admin = tenantAccess(ROLES.ADMIN);

/**
 * Operability for platform operators: deep health (docs/operations.md "What to watch"), erasure of a
 * person's data from a tenant, driven by every module's `personalData` declaration, and tenant
 * archives: export (tenant admin or operator, built in the background) and import (operator, into an
 * empty tenant).
 */
export function platformOpsModule(declarations: readonly (readonly [string, PersonalColumns])[]) {
  usePersonalDeclarations(declarations);
  return defineModule({
    name: "platform-ops",
    errorCodes: PLATFORM_OPS_ERROR_CODES,
    // A community whose subscription lapsed may still take its data with it.
    writesWhenInactive: true,
    routes: [
      { method: "get", path: "/api/platform/health", endpoint: GetPlatformHealth, access: platform },
      { method: "post", path: "/api/platform/tenants/:id/erasures", endpoint: ErasePerson, access: platform },
      { method: "get", path: "/api/platform/tenants/:id/erasures", endpoint: ListErasures, access: platform },
      // The notification service's delivery log, reached over its binding (deliveries.ts).
      {
        method: "get",
        path: "/api/platform/notifications/messages",
        endpoint: ListNotificationMessages,
        access: platform,
      },
      {
        method: "get",
        path: "/api/platform/notifications/messages/:id",
        endpoint: GetNotificationMessage,
        access: platform,
      },
      {
        method: "post",
        path: "/api/platform/notifications/messages/:id/retry",
        endpoint: RetryNotificationMessage,
        access: platform,
      },
      { method: "post", path: "/api/archives", endpoint: RequestTenantExport, access: admin },
      { method: "get", path: "/api/archives", endpoint: ListTenantArchives, access: admin },
      { method: "get", path: "/api/archives/:id", endpoint: GetTenantArchive, access: admin },
      { method: "get", path: "/api/archives/:id/download", endpoint: DownloadTenantArchive, access: admin },
      {
        method: "post",
        path: "/api/platform/tenants/:id/archives",
        endpoint: RequestPlatformExport,
        access: platform,
      },
      {
        method: "get",
        path: "/api/platform/tenants/:id/archives",
        endpoint: ListPlatformArchives,
        access: platform,
      },
      {
        method: "post",
        path: "/api/platform/tenants/:id/imports",
        endpoint: ImportArchive,
        access: platform,
      },
      { method: "get", path: "/api/platform/archives/:id", endpoint: GetPlatformArchive, access: platform },
      {
        method: "get",
        path: "/api/platform/archives/:id/download",
        endpoint: DownloadPlatformArchive,
        access: platform,
      },
    ],
    jobs: [{ name: "platform-ops.archives", cron: CRON.HOURLY, run: archiveJob }],
  });
}

/** For the composition root: the file sweep waits while an archive import runs (src/app.ts). */
export { archiveImportRunning } from "./archives";
