import { expect } from "vitest";
import type { FactoryTable, World } from "../../helpers/factories";
import { callJson } from "../../helpers/harness";

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
  // Issue 44: a pending invitation of A (a new secretary's set-password link), which B's admin cannot revoke.
  "/api/members/invitations/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: await invitationOfA(w) } }),
  },
  // Issue 45: a number added to a pending invitation of A, which B's admin cannot reach.
  "/api/members/invitations/:id/contact": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: await invitationOfA(w) },
      body: { put: { whatsapp: "081234567890" } },
    }),
  },
  // Issue 45: an officer's one-time sign-in code for a member of A; B's admin never reaches A's member.
  "/api/members/:userId/sign-in-code": {
    kind: "tenant",
    make: async (w) => ({ params: { userId: (await memberOfA(w)).id }, body: { post: {} } }),
  },
  "/api/members/:userId": {
    kind: "tenant",
    make: async (w) => ({ params: { userId: (await memberOfA(w)).id } }),
  },
};

function memberOfA(w: World) {
  return w.once("member of A", () => w.a.tenant.member("bendahara", { unitId: w.a.household.unitId }));
}

function invitationOfA(w: World) {
  return w.once("invitation of A", async () => {
    const admin = w.a.as.admin.token;
    const email = `undangan-${crypto.randomUUID().slice(0, 8)}@warga.test`;
    const sent = await callJson("/api/members/invitations", {
      token: admin,
      body: { name: "Calon Sekretaris", email, roles: ["sekretaris"] },
    });
    expect(sent.status).toBe(202);
    const list = await callJson<{ items: { id: string; name: string }[] }>(
      "/api/members/invitations?limit=100",
      {
        token: admin,
      },
    );
    return list.body.items.find((i) => i.name === "Calon Sekretaris")?.id ?? "";
  });
}
