import type { FactoryTable } from "../../helpers/factories";
import { createTenant, unique } from "../../helpers/harness";

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  // A tenant of its own for each route of the path: the DELETE closes it (A must stay open for the walk).
  "/api/platform/tenants/:id": {
    kind: "platform",
    make: async () => {
      const tenant = await createTenant();
      return {
        params: { id: tenant.id },
        body: { patch: { name: "RT Uji" }, delete: { confirmSlug: tenant.slug } },
      };
    },
  },
  "/api/platform/tenants/:id/admin-invitations": {
    kind: "platform",
    make: async (w) => ({
      params: { id: w.a.tenant.id },
      body: { post: { name: "Wakil Ketua", email: `${unique("wakil")}@warga.test` } },
    }),
  },
};
