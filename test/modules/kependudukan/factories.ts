import { type FactoryTable, made } from "../../helpers/factories";
import { callJson } from "../../helpers/harness";

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/kependudukan/units/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: w.a.household.unitId }, body: { put: { occupancy: "pemilik" } } }),
  },
  "/api/kependudukan/kk/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: w.a.household.kkId }, body: { put: { notes: "Catatan RT" } } }),
  },
  "/api/kependudukan/kk/:id/members": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: w.a.household.kkId },
      body: {
        post: {
          name: "Dewi Santoso",
          nik: "3201014505159999",
          relationship: "anak",
          sex: "P",
          birthDate: "2015-05-05",
          birthPlace: "Bandung",
        },
      },
    }),
  },
  // Issue 13: the rest of the registry.
  "/api/kependudukan/kk/:id/members/:memberId": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: w.a.household.kkId, memberId: w.a.household.childMemberId },
      body: { put: { occupation: "Pelajar" } },
    }),
  },
  "/api/kependudukan/kk/:id/vehicles": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: w.a.household.kkId },
      body: { post: { plate: "D 4321 WLK", kind: "motor" } },
    }),
  },
  "/api/kependudukan/kk/:id/vehicles/:vehicleId": {
    kind: "tenant",
    make: async (w) => {
      const vehicle = await w.once("registry vehicle", () =>
        made(
          callJson<{ id: string }>(`/api/kependudukan/kk/${w.a.household.kkId}/vehicles`, {
            token: w.a.household.sek.token,
            body: { plate: "D 1234 ABC", kind: "mobil", brand: "Toyota" },
          }),
          "registry vehicle",
        ),
      );
      return {
        params: { id: w.a.household.kkId, vehicleId: vehicle.id },
        body: { put: { colour: "Merah" } },
      };
    },
  },
  "/api/kependudukan/corrections/:id": {
    kind: "tenant",
    make: async (w) => {
      const correction = await w.once("registry correction", () =>
        made(
          callJson<{ id: string }>("/api/kependudukan/household/corrections", {
            token: w.a.household.warga.token,
            body: { memberId: w.a.household.childMemberId, field: "birthPlace", value: "Bogor" },
          }),
          "registry correction",
        ),
      );
      return { params: { id: correction.id }, body: { put: { status: "ditolak", reason: "Sudah benar" } } };
    },
  },
};
