import { type FactoryTable, made, type World } from "../../helpers/factories";
import { callJson } from "../../helpers/harness";

const visitor = (w: World) =>
  w.once("visitor", async () => {
    const created = await made(
      callJson<{ id: string }>("/api/visitor", {
        token: w.a.as.warga.token,
        body: {
          guestName: "Andi Wijaya",
          purpose: "Silaturahmi",
          visitAt: new Date(Date.now() + 2 * 3_600_000).toISOString(),
        },
      }),
      "visitor",
    );
    // Approved, so that its QR exists for the owner to read back.
    await made(
      callJson(`/api/visitor/${created.id}`, {
        method: "PUT",
        token: w.a.as.sekretaris.token,
        body: { status: "disetujui" },
      }),
      "visitor approval",
      200,
    );
    return created;
  });

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/visitor/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await visitor(w)).id },
      body: { put: { status: "ditolak" } },
      ownerRole: "warga",
      residentOwned: true,
    }),
  },
  "/api/visitor/:id/qr": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await visitor(w)).id }, ownerRole: "warga", residentOwned: true }),
  },
};
