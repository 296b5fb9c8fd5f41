import type { FactoryTable, World } from "../../helpers/factories";

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  // Members and duties (issue 27): a member of A (a treasurer living there), whom no caller of B reaches.
  "/api/members/:userId/roles": {
    kind: "tenant",
    make: async (w) => ({
      params: { userId: (await memberOfA(w)).id },
      body: { put: { roles: ["bendahara", "sekretaris"] } },
    }),
  },
  "/api/members/:userId/person": {
    kind: "tenant",
    make: async (w) => ({ params: { userId: (await memberOfA(w)).id }, body: { put: { personId: null } } }),
  },
  "/api/members/:userId/unit": {
    kind: "tenant",
    make: async (w) => ({
      params: { userId: (await memberOfA(w)).id },
      body: { put: { unitId: w.a.household.unitId } },
    }),
  },
  "/api/members/:userId": {
    kind: "tenant",
    make: async (w) => ({ params: { userId: (await memberOfA(w)).id } }),
  },
};

function memberOfA(w: World) {
  return w.once("member of A", () => w.a.tenant.member("bendahara", { unitId: w.a.household.unitId }));
}
