import { type FactoryTable, made, type World } from "../../helpers/factories";
import { callJson } from "../../helpers/harness";

const complaint = (w: World) =>
  w.once("complaint", () =>
    made(
      callJson<{ id: string }>("/api/pengaduan", {
        token: w.a.as.warga.token,
        body: { title: "Got mampet", description: "Got depan blok C meluap", category: "kebersihan" },
      }),
      "complaint",
    ),
  );

const suggestion = (w: World) =>
  w.once("suggestion", () =>
    made(
      callJson<{ id: string }>("/api/saran", {
        token: w.a.as.warga.token,
        body: { body: "Jadwal ronda diumumkan di grup" },
      }),
      "suggestion",
    ),
  );

const proposal = (w: World) =>
  w.once("proposal", () =>
    made(
      callJson<{ id: string }>("/api/usulan", {
        token: w.a.as.warga.token,
        body: { title: "Lampu taman", description: "Pasang lampu di taman bermain" },
      }),
      "proposal",
    ),
  );

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/pengaduan/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await complaint(w)).id },
      body: { put: { status: "diproses", response: "Sedang ditangani" } },
      ownerRole: "warga",
      residentOwned: true,
    }),
  },
  "/api/saran/:id/read": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await suggestion(w)).id } }),
  },
  "/api/usulan/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await proposal(w)).id },
      body: { put: { status: "diterima", note: "Disetujui rapat" } },
    }),
  },
  "/api/usulan/:id/dukung": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await proposal(w)).id } }),
  },
};
