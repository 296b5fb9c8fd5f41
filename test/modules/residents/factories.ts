import { type FactoryTable, made, type World } from "../../helpers/factories";
import { callJson, unique } from "../../helpers/harness";

const application = (w: World) =>
  w.once("application", async () => {
    const whatsapp = `0813${String(Date.now()).slice(-8)}`;
    await made(
      callJson(`/api/public/tenants/${w.a.tenant.slug}/applications`, {
        body: { fullName: "Pelamar Uji", whatsapp, block: "D", houseNumber: "9" },
      }),
      "application",
      202,
    );
    const list = await made(
      callJson<{ items: { id: string; whatsapp: string }[] }>("/api/applications?status=menunggu", {
        token: w.a.as.sekretaris.token,
      }),
      "application list",
      200,
    );
    const found = list.items.find((item) => item.whatsapp === `62${whatsapp.slice(1)}`);
    if (!found) {
      throw new Error("the application is not in A's list");
    }
    return found;
  });

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/applications/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await application(w)).id },
      body: { put: { status: "ditolak", reason: "Data tidak lengkap" } },
    }),
  },
  "/api/residents/:id/credentials/reset": {
    kind: "tenant",
    make: async (w) => ({ params: { id: w.a.as.warga.id } }),
  },
  "/api/public/tenants/:slug/applications": {
    kind: "public",
    make: async (w) => ({
      params: { slug: w.a.tenant.slug },
      foreign: { slug: unique("rt-tidak-ada") },
      body: { post: { fullName: "Pelamar Uji", whatsapp: "081399990000", block: "E", houseNumber: "1" } },
    }),
  },
};
