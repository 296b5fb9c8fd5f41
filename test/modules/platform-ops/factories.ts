import type { FactoryTable, World } from "../../helpers/factories";
import { readyExport } from "./helpers";

const archive = (w: World) => w.once("archive", () => readyExport(w.a.as.admin.token));

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/platform/tenants/:id/erasures": {
    kind: "platform",
    make: async (w) => ({
      params: { id: w.a.tenant.id },
      body: { post: { userId: "01NOSUCHUSER0000000000000A" } },
    }),
  },
  // Tenant archives (issue 19): the admin's exports of A; operators reach any tenant's.
  "/api/archives/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: await archive(w) } }),
  },
  "/api/archives/:id/download": {
    kind: "tenant",
    make: async (w) => ({ params: { id: await archive(w) } }),
  },
  "/api/platform/tenants/:id/archives": {
    kind: "platform",
    make: async (w) => ({ params: { id: w.a.tenant.id } }),
  },
  "/api/platform/archives/:id": {
    kind: "platform",
    make: async (w) => ({ params: { id: await archive(w) } }),
  },
  "/api/platform/archives/:id/download": {
    kind: "platform",
    make: async (w) => ({ params: { id: await archive(w) } }),
  },
  "/api/platform/tenants/:id/imports": {
    kind: "exempt",
    why: "its :id is the import's target, which must be an empty tenant (409 otherwise); operators name any tenant by design, walked in test/modules/platform-ops/archives.test.ts",
    probe: { params: { id: "01NOSUCHTENANT000000000000" }, status: 401 },
  },
  // Issue 47 item 4: a message of the notification service's delivery log is no tenant's row; operators
  // read and retry any, by design.
  "/api/platform/notifications/messages/:id": {
    kind: "exempt",
    why: "a message of the notification service's delivery log, which operators read across tenants by design; walked in test/modules/platform-ops/deliveries.test.ts",
    probe: { params: { id: "01NOSUCHMESSAGE00000000000" }, status: 401 },
  },
  "/api/platform/notifications/messages/:id/retry": {
    kind: "exempt",
    why: "a message of the notification service's delivery log, which operators retry across tenants by design; walked in test/modules/platform-ops/deliveries.test.ts",
    probe: { params: { id: "01NOSUCHMESSAGE00000000000" }, status: 401 },
  },
};
