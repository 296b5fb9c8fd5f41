import { type FactoryTable, made, type World } from "../../helpers/factories";
import { callJson } from "../../helpers/harness";

// Content (issue 16): one published news item, announcement and event.
const beritaItem = (w: World) =>
  w.once("berita", () =>
    made(
      callJson<{ id: string }>("/api/berita", {
        token: w.a.as.sekretaris.token,
        body: { title: "Kerja bakti bulanan", body: "Minggu pagi di balai warga.", status: "terbit" },
      }),
      "berita",
    ),
  );

const pengumumanItem = (w: World) =>
  w.once("pengumuman", () =>
    made(
      callJson<{ id: string }>("/api/pengumuman", {
        token: w.a.as.sekretaris.token,
        body: { title: "Pemadaman air", body: "Air PAM mati Sabtu pukul 09.00–12.00." },
      }),
      "pengumuman",
    ),
  );

const agendaItem = (w: World) =>
  w.once("agenda", () =>
    made(
      callJson<{ id: string }>("/api/agenda", {
        token: w.a.as.sekretaris.token,
        body: {
          title: "Rapat RT",
          place: "Balai warga",
          start: "2030-01-05T19:30:00+07:00",
          end: "2030-01-05T21:00:00+07:00",
        },
      }),
      "agenda",
    ),
  );

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/berita/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await beritaItem(w)).id }, body: { put: { title: "Judul baru" } } }),
  },
  "/api/pengumuman/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await pengumumanItem(w)).id },
      body: { put: { title: "Judul baru" } },
    }),
  },
  "/api/pengumuman/:id/pengiriman": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await pengumumanItem(w)).id } }),
  },
  "/api/agenda/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await agendaItem(w)).id }, body: { put: { place: "Masjid" } } }),
  },
};
