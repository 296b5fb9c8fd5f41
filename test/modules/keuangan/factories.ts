import { type FactoryTable, made, type World } from "../../helpers/factories";
import { callJson, unique } from "../../helpers/harness";

const duesType = (w: World) =>
  w.once("dues type", () =>
    made(
      callJson<{ id: string }>("/api/iuran/jenis", {
        token: w.a.as.bendahara.token,
        body: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01" },
      }),
      "dues type",
    ),
  );

const duesBill = (w: World) =>
  w.once("dues bill", async () => {
    await duesType(w);
    await made(
      callJson("/api/iuran/tagihan/generate", { token: w.a.as.bendahara.token, body: { period: "2026-02" } }),
      "dues generation",
      200,
    );
    const bills = await made(
      callJson<{ items: { id: string }[] }>(
        `/api/iuran/tagihan?period=2026-02&unitId=${w.a.household.unitId}`,
        {
          token: w.a.as.bendahara.token,
        },
      ),
      "bill list",
      200,
    );
    const bill = bills.items[0];
    if (!bill) {
      throw new Error("no bill for A's household");
    }
    return bill;
  });

const duesPayment = (w: World) =>
  w.once("dues payment", async () =>
    made(
      callJson<{ id: string }>(`/api/iuran/tagihan/${(await duesBill(w)).id}/pembayaran`, {
        token: w.a.as.bendahara.token,
        body: { amount: 5_000, method: "transfer", paidAt: "2026-02-04T03:00:00.000Z" },
      }),
      "dues payment",
    ),
  );

const cashEntry = (w: World) =>
  w.once("cash entry", () =>
    made(
      callJson<{ id: string }>("/api/kas", {
        token: w.a.as.bendahara.token,
        body: {
          kind: "masuk",
          category: "Sumbangan",
          amount: 100_000,
          date: "2026-01-15",
          note: "Sumbangan warga",
        },
      }),
      "cash entry",
    ),
  );

const expense = (w: World) =>
  w.once("expense", () =>
    made(
      callJson<{ id: string }>("/api/pengeluaran", {
        token: w.a.as.bendahara.token,
        body: {
          category: "Keamanan",
          amount: 2_000_000,
          date: "2026-01-10",
          description: "Gaji satpam Januari",
        },
      }),
      "expense",
    ),
  );

const campaign = (w: World) =>
  w.once("campaign", () =>
    made(
      callJson<{ id: string }>("/api/kampanye", {
        token: w.a.as.bendahara.token,
        body: {
          title: "Renovasi pos ronda",
          description: "Atap pos ronda bocor",
          target: 5_000_000,
          deadline: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        },
      }),
      "campaign",
    ),
  );

const pledge = (w: World) =>
  w.once("pledge", async () => {
    const c = await campaign(w);
    const d = await made(
      callJson<{ id: string }>(`/api/kampanye/${c.id}/donasi`, {
        token: w.a.as.warga.token,
        body: { amount: 50_000 },
      }),
      "pledge",
    );
    return { campaignId: c.id, donationId: d.id };
  });

const transparentA = (w: World) =>
  w.once("transparency", () =>
    made(
      callJson("/api/keuangan/pengaturan", {
        method: "PUT",
        token: w.a.as.admin.token,
        body: { transparansi: true },
      }),
      "transparency on",
      200,
    ),
  );

/** One factory per id-bearing path of its routes, for the isolation walk (test/helpers/factories.ts). */
export const FACTORIES: FactoryTable = {
  "/api/iuran/jenis/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await duesType(w)).id },
      body: {
        put: {
          name: "Iuran kebersihan",
          amount: 30_000,
          basis: "unit",
          startPeriod: "2026-01",
          active: true,
        },
      },
    }),
  },
  "/api/iuran/tagihan/:id/pembayaran": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await duesBill(w)).id },
      body: { post: { amount: 1_000, method: "tunai", paidAt: "2026-02-05T03:00:00.000Z" } },
    }),
  },
  "/api/iuran/pembayaran/:id/pembatalan": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await duesPayment(w)).id },
      body: { post: { reason: "Transfer dibatalkan bank" } },
    }),
  },
  "/api/iuran/tagihan/:id/bayar-online": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await duesBill(w)).id }, ownerRole: "warga", residentOwned: true }),
  },
  "/api/kas/:id/koreksi": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await cashEntry(w)).id },
      body: { post: { reason: "Salah catat" } },
    }),
  },
  "/api/anggaran/:tahun": {
    kind: "exempt",
    why: "a year names no object: each community's budget lives in its own database, so B's PUT of a year writes B's budget",
    probe: { params: { tahun: "2026" }, status: 401 },
  },
  "/api/pengeluaran/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await expense(w)).id },
      body: { put: { status: "ditolak", reason: "Belum ada kuitansi" } },
    }),
  },
  "/api/kampanye/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await campaign(w)).id },
      body: { put: { title: "Renovasi pos ronda RT" } },
    }),
  },
  "/api/kampanye/:id/donasi": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await campaign(w)).id }, body: { post: { amount: 10_000 } } }),
  },
  "/api/kampanye/:id/donasi/:donationId": {
    kind: "tenant",
    make: async (w) => {
      const p = await pledge(w);
      return { params: { id: p.campaignId, donationId: p.donationId }, body: { put: { status: "ditolak" } } };
    },
  },
  "/api/public/tenants/:slug/laporan": {
    kind: "public",
    make: async (w) => {
      await transparentA(w);
      return { params: { slug: w.a.tenant.slug }, foreign: { slug: unique("rt-tidak-ada") } };
    },
  },
};
