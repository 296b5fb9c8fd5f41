import {
  type FactoryTable,
  made,
  type TenantObject,
  unknownToken,
  type World,
} from "../../helpers/factories";
import { callJson } from "../../helpers/harness";
import { finishedLetter, sampleFields } from "./helpers";

const letter = (w: World) =>
  w.once("letter", () =>
    made(
      callJson<{ id: string }>("/api/surat", {
        token: w.a.as.warga.token,
        body: {
          jenis: "domisili",
          onBehalfOf: "self",
          keperluan: "Melamar pekerjaan",
          fields: sampleFields("domisili"),
        },
      }),
      "letter",
    ),
  );

const letterRoute =
  (post?: unknown) =>
  async (w: World): Promise<TenantObject> => ({
    params: { id: (await letter(w)).id },
    body: { put: { status: "diproses" }, post },
    ownerRole: "warga",
    residentOwned: true,
  });

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/surat/:id": { kind: "tenant", make: letterRoute() },
  "/api/surat/:id/resubmit": { kind: "tenant", make: letterRoute({ keperluan: "Keperluan lain" }) },
  "/api/surat/:id/cancel": { kind: "tenant", make: letterRoute({ reason: "Tidak jadi" }) },
  // Rendering needs a browser; the owner's 409 letter_not_ready shows the lookup found the letter.
  "/api/surat/:id/pdf": {
    kind: "tenant",
    make: async (w) => ({ ...(await letterRoute()(w)), ownGetStatus: 409 }),
  },
  "/verify/surat/:code": {
    kind: "public",
    make: async (w) => {
      const done = await w.once("finished letter", () => finishedLetter(w.a.household, "001/DOM/2026"));
      return {
        params: { code: done.verificationCode ?? "" },
        foreign: { code: unknownToken().slice(0, 20) },
      };
    },
  },
};
