import {
  type FactoryTable,
  made,
  type TenantObject,
  unknownToken,
  type World,
} from "../../helpers/factories";
import { callJson } from "../../helpers/harness";
import { ackingHousehold, finishedLetter, sampleFields, settledRw } from "./helpers";

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

/**
 * A letter waiting in an RW's queue: an RW of its own (A and B of the world are RTs) with a linked RT. B's
 * staff, an RT's, get 404 for it, as any RW other than this one does.
 */
const queued = (w: World) =>
  w.once("letter in an RW's queue", async () => {
    const { tenant: rw } = await settledRw();
    const rt = await ackingHousehold(rw.slug);
    return (await finishedLetter(rt, "001/SKD/RT001.RW005/XI/2026")).id;
  });

const ackRoute =
  (post?: unknown) =>
  async (w: World): Promise<TenantObject> => ({
    params: { letterId: await queued(w) },
    body: { post },
    ownerRole: "admin",
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
  // Issue 45: the RT issues a letter without the RW's acknowledgement; B's staff never find A's letter.
  "/api/surat/:id/issue-without-rw": {
    kind: "tenant",
    make: async (w) => ({
      ...(await letterRoute({ reason: "RW tidak dapat dihubungi" })(w)),
      ownerRole: "admin",
    }),
  },
  "/api/surat/rw-acknowledgements/:letterId": { kind: "tenant", make: ackRoute({}) },
  "/api/surat/rw-acknowledgements/:letterId/decline": {
    kind: "tenant",
    make: ackRoute({ reason: "Data pemohon belum sesuai" }),
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
