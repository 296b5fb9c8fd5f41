import type { FactoryTable } from "../../helpers/factories";
import { createTenant } from "../../helpers/harness";

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  // An RT linked to an RW: B's admin (an RT's) gets 404 for it, as for any link that is not theirs.
  "/api/tenant-hierarchy/link-child/:slug": {
    kind: "tenant",
    make: async (w) =>
      w.once("linked RT", async () => {
        const rw = await createTenant({ type: "RW" });
        const child = await createTenant({ parentSlug: rw.slug });
        return { params: { slug: child.slug }, ownerRole: "admin" as const };
      }),
  },
};
