import { type FactoryTable, made, photoForm, type World } from "../../helpers/factories";
import { callJson } from "../../helpers/harness";

/**
 * What a registration gives about the guest besides name, purpose and time: the spec lists the plate and
 * the identity as given at registration, and a community requires both unless it turned them off.
 */
export const GUEST_PAPERS = { vehiclePlate: "B 1234 XYZ", identity: "KTP 3201010101800001" } as const;

const visitor = (w: World) =>
  w.once("visitor", async () => {
    const created = await made(
      callJson<{ id: string }>("/api/visitor", {
        token: w.a.as.warga.token,
        body: {
          guestName: "Andi Wijaya",
          purpose: "Silaturahmi",
          visitAt: new Date(Date.now() + 2 * 3_600_000).toISOString(),
          ...GUEST_PAPERS,
        },
      }),
      "visitor",
    );
    // Approved, so that its QR exists for the owner to read back.
    const approved = await made(
      callJson<{ pass: string }>(`/api/visitor/${created.id}`, {
        method: "PUT",
        token: w.a.as.sekretaris.token,
        body: { status: "disetujui" },
      }),
      "visitor approval",
      200,
    );
    return { ...created, pass: approved.pass };
  });

/** A walk-in the guard registered at the gate for A's resident's house (issue 45), still waiting. */
const walkIn = (w: World, kind: string) =>
  w.once(kind, async () => {
    const unit = await made(
      callJson<{ block: string; number: string }>(`/api/kependudukan/units/${w.a.household.unitId}`, {
        token: w.a.as.sekretaris.token,
      }),
      "unit",
      200,
    );
    return made(
      callJson<{ id: string }>("/api/visitor/gate/walk-in", {
        token: w.a.as.satpam.token,
        body: { guestName: "Ojol Bayu", category: "ojol", block: unit.block, number: unit.number },
      }),
      "walk-in",
    );
  });

/** A regular visitor's card of A's resident's household, admitted at any hour of any day. */
const regular = (w: World, kind: string) =>
  w.once(kind, () =>
    made(
      callJson<{ id: string }>("/api/visitor/regular", {
        token: w.a.as.warga.token,
        body: {
          name: "Mbak Sri",
          role: "art",
          days: [1, 2, 3, 4, 5, 6, 7],
          fromTime: "00:00",
          untilTime: "23:59",
        },
      }),
      "regular visitor",
    ),
  );

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
  // The pass link: another community's pass, or a forged one, opens nothing.
  "/tamu/:pass": {
    kind: "public",
    make: async (w) => {
      const pass = (await visitor(w)).pass;
      const [header, payload] = pass.split(".");
      return { params: { pass }, foreign: { pass: `${header}.${payload}.${"A".repeat(43)}` } };
    },
  },
  // The host's answer: the host household's own (another resident gets 404 too).
  "/api/visitor/:id/tuan-rumah": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await walkIn(w, "walk-in host")).id },
      body: { post: { status: "ditolak" } },
      ownerRole: "warga",
      residentOwned: true,
    }),
  },
  "/api/visitor/:id/telepon": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await walkIn(w, "walk-in phone")).id },
      body: { post: {} },
      ownerRole: "satpam",
    }),
  },
  // A walk-in's photo: the gate's to attach and read (the host's household reads it too; another
  // community's guard gets 404).
  "/api/visitor/:id/foto": {
    kind: "tenant",
    make: async (w) => {
      const { id } = await w.once("walk-in photo", async () => {
        const walk = await walkIn(w, "walk-in with photo");
        await made(
          callJson(`/api/visitor/${walk.id}/foto`, { token: w.a.as.satpam.token, body: photoForm() }),
          "walk-in photo",
          200,
        );
        return walk;
      });
      return { params: { id }, body: { post: photoForm() }, ownerRole: "satpam" };
    },
  },
  "/api/visitor/regular/:id/cabut": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await regular(w, "regular to revoke")).id },
      ownerRole: "warga",
      residentOwned: true,
    }),
  },
  "/api/visitor/regular/:id/check-in": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await regular(w, "regular at the gate")).id },
      ownerRole: "satpam",
    }),
  },
  "/api/visitor/:id/qr": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await visitor(w)).id }, ownerRole: "warga", residentOwned: true }),
  },
};
