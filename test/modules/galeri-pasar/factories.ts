import { type FactoryTable, made, photoForm, type World } from "../../helpers/factories";
import { callJson } from "../../helpers/harness";

const album = (w: World) =>
  w.once("album", async () => {
    const created = await made(
      callJson<{ id: string }>("/api/galeri", {
        token: w.a.as.sekretaris.token,
        body: { title: "Kerja bakti Agustus", eventDate: "2026-08-16" },
      }),
      "album",
    );
    const photo = await made(
      callJson<{ id: string }>(`/api/galeri/${created.id}/foto`, {
        token: w.a.as.sekretaris.token,
        body: photoForm(),
      }),
      "gallery photo",
    );
    return { id: created.id, photoId: photo.id };
  });

const listing = (w: World) =>
  w.once("listing", () =>
    made(
      callJson<{ id: string }>("/api/pasar/listings", {
        token: w.a.as.warga.token,
        body: {
          title: "Nasi uduk Bu Sri",
          description: "Setiap pagi",
          price: 12000,
          category: "makanan",
          condition: "baru",
        },
      }),
      "listing",
    ),
  );

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/galeri/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await album(w)).id } }),
  },
  "/api/galeri/:id/foto": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await album(w)).id }, body: { post: photoForm() } }),
  },
  "/api/galeri/:id/foto/:photoId": {
    kind: "tenant",
    make: async (w) => ({ params: await album(w) }),
  },
  "/api/pasar/listings/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await listing(w)).id },
      body: { put: { price: "nego" } },
      ownerRole: "warga",
    }),
  },
  "/api/pasar/listings/:id/moderasi": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await listing(w)).id },
      body: { put: { status: "disembunyikan", reason: "Uji isolasi" } },
    }),
  },
};
