import { type FactoryTable, made, type World } from "../../helpers/factories";
import { callJson } from "../../helpers/harness";

const device = (w: World) =>
  w.once("device", () =>
    made(
      callJson<{ device: { id: string } }>("/api/gate-devices", {
        token: w.a.as.admin.token,
        body: { name: "Gerbang utama", adapter: "generic" },
      }),
      "device",
    ),
  );

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/gate-devices/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await device(w)).device.id } }),
  },
  "/api/gate-devices/:id/deactivate": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await device(w)).device.id } }),
  },
  "/api/gate-devices/:id/activate": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await device(w)).device.id } }),
  },
  "/api/gate-devices/:id/events": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await device(w)).device.id } }),
  },
};
