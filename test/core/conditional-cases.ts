import { expect } from "vitest";
import type { TenantRole } from "../../src/core/context";
import type { World } from "../helpers/factories";
import { callJson } from "../helpers/harness";
import { FACTORIES } from "../modules/factories";
import { newPoll } from "../modules/musyawarah/helpers";

/**
 * The versioned resources test/core/conditional.test.ts walks (ADR 0035), one case each: who reads the
 * resource, which writes move it, and where an object of the kind comes from.
 */
export interface Case {
  /** Who reads the resource back; absent when the path has no GET (its writes answer the ETag). */
  read?: TenantRole;
  write: {
    method: "PUT" | "DELETE";
    as: TenantRole;
    /** Each one changes the resource from the one before (a write that changes nothing keeps its version). */
    bodies: unknown[] | ((w: World) => unknown[]);
  };
  /** The object's path params, when the isolation walk's factory does not make the right one. */
  make?: (w: World) => Promise<Record<string, string>>;
  /** A settings singleton or a year: the same path in every tenant, so no other tenant's id to try. */
  singleton?: boolean;
  /**
   * Where the resource is read and written when not (both) at its path: the budget's GET names its year
   * in the query; a member's duties and person link are read from the member.
   */
  at?: (params: Record<string, string>) => { read: string; write: string };
}

/** A member of A, made fresh for the case that changes or removes them. */
const freshMember = async (w: World) => ({
  userId: (await w.a.tenant.member("bendahara", { unitId: w.a.household.unitId })).id,
});

const budgetAt = (p: Record<string, string>) => ({
  read: `/api/anggaran?tahun=${p.tahun}`,
  write: `/api/anggaran/${p.tahun}`,
});

const budgetWrite = {
  method: "PUT" as const,
  as: "admin" as const,
  bodies: [
    { lines: [{ category: "Keamanan", amount: 24_000_000 }] },
    {
      lines: [
        { category: "Keamanan", amount: 24_000_000 },
        { category: "Kebersihan", amount: 6_000_000 },
      ],
    },
  ],
};

const memberAt = (p: Record<string, string>, write: string) => ({ read: `/api/members/${p.userId}`, write });

export const CASES: Record<string, Case> = {
  "/api/berita/:id": {
    read: "warga",
    write: {
      method: "PUT",
      as: "sekretaris",
      bodies: [{ title: "Kerja bakti" }, { title: "Kerja bakti Minggu" }],
    },
  },
  "/api/pengumuman/:id": {
    read: "warga",
    write: { method: "PUT", as: "sekretaris", bodies: [{ title: "Air mati" }, { title: "Air mati Sabtu" }] },
  },
  "/api/agenda/:id": {
    read: "warga",
    write: { method: "PUT", as: "sekretaris", bodies: [{ place: "Masjid" }, { place: "Balai RT" }] },
  },
  "/api/kampanye/:id": {
    read: "warga",
    write: {
      method: "PUT",
      as: "bendahara",
      bodies: [{ title: "Renovasi pos ronda" }, { title: "Renovasi pos ronda RT" }],
    },
  },
  "/api/iuran/jenis/:id": {
    write: {
      method: "PUT",
      as: "bendahara",
      bodies: [30_000, 35_000, 40_000].map((amount) => ({
        name: "Iuran kebersihan",
        amount,
        basis: "unit",
        startPeriod: "2026-01",
        active: true,
      })),
    },
  },
  "/api/keuangan/pengaturan": {
    read: "bendahara",
    singleton: true,
    write: { method: "PUT", as: "admin", bodies: [{ transparansi: true }, { transparansi: false }] },
  },
  "/api/kependudukan/kk/:id": {
    read: "sekretaris",
    write: {
      method: "PUT",
      as: "sekretaris",
      bodies: [{ notes: "Catatan RT" }, { notes: "Pindah bulan depan" }],
    },
  },
  "/api/kependudukan/kk/:id/members/:memberId": {
    write: {
      method: "PUT",
      as: "sekretaris",
      bodies: [{ occupation: "Pelajar" }, { occupation: "Mahasiswa" }, { occupation: "Karyawan" }],
    },
  },
  "/api/kependudukan/kk/:id/vehicles/:vehicleId": {
    write: {
      method: "PUT",
      as: "sekretaris",
      bodies: [{ colour: "Merah" }, { colour: "Biru" }, { colour: "Hitam" }],
    },
  },
  "/api/kependudukan/units/:id": {
    read: "sekretaris",
    write: { method: "PUT", as: "sekretaris", bodies: [{ occupancy: "pemilik" }, { occupancy: "penyewa" }] },
  },
  "/api/musyawarah/:id": {
    // A draft: residents do not see it yet.
    read: "sekretaris",
    make: async (w) => ({ id: (await newPoll(w.a.as.sekretaris.token)).id }),
    write: {
      method: "PUT",
      as: "sekretaris",
      bodies: [{ title: "Jadwal ronda" }, { title: "Jadwal ronda malam" }],
    },
  },
  "/api/pasar/listings/:id": {
    read: "sekretaris",
    write: { method: "PUT", as: "warga", bodies: [{ price: "nego" }, { price: 75_000 }] },
  },
  "/api/pengaduan/:id": {
    read: "sekretaris",
    write: {
      method: "PUT",
      as: "sekretaris",
      bodies: [
        { status: "diproses", response: "Sedang ditangani" },
        { status: "selesai", response: "Lampu sudah diganti" },
      ],
    },
  },
  "/api/usulan/:id": {
    read: "warga",
    write: { method: "PUT", as: "sekretaris", bodies: [{ status: "diterima", note: "Disetujui rapat" }] },
  },
  "/api/surat/:id": {
    read: "sekretaris",
    write: { method: "PUT", as: "sekretaris", bodies: [{ status: "diproses" }] },
  },
  "/api/surat/settings": {
    read: "sekretaris",
    singleton: true,
    write: { method: "PUT", as: "admin", bodies: [{ rt: "005" }, { rw: "011" }] },
  },
  "/api/visitor/:id": {
    read: "sekretaris",
    // Still waiting (the isolation walk's visitor is approved already).
    make: async (w) => {
      const res = await callJson<{ id: string }>("/api/visitor", {
        token: w.a.as.warga.token,
        body: {
          guestName: "Andi Wijaya",
          purpose: "Silaturahmi",
          visitAt: new Date(Date.now() + 7_200_000).toISOString(),
          vehiclePlate: "B 1234 XYZ",
          identity: "KTP 3201010101800001",
        },
      });
      expect(res.status).toBe(201);
      return { id: res.body.id };
    },
    write: { method: "PUT", as: "sekretaris", bodies: [{ status: "ditolak" }] },
  },
  "/api/galeri/:id": {
    read: "warga",
    write: { method: "DELETE", as: "sekretaris", bodies: [undefined] },
  },
  "/api/ai/info-rt": {
    read: "warga",
    singleton: true,
    write: {
      method: "PUT",
      as: "sekretaris",
      bodies: [{ rules: "Tamu menginap lapor 1x24 jam" }, { agenda: "Kerja bakti Minggu pagi" }],
    },
  },
  // Each year its own resource: the GET names it in the query, the PUT in the path (ADR 0035 Update).
  "/api/anggaran": {
    read: "sekretaris",
    singleton: true,
    make: async () => ({ tahun: "2031" }),
    at: budgetAt,
    write: budgetWrite,
  },
  "/api/anggaran/:tahun": {
    read: "bendahara",
    singleton: true,
    make: async () => ({ tahun: "2032" }),
    at: budgetAt,
    write: budgetWrite,
  },
  // Memberships live in the platform database; another community's member is not there.
  "/api/members/:userId": {
    read: "sekretaris",
    make: freshMember,
    write: { method: "DELETE", as: "admin", bodies: [undefined] },
  },
  "/api/members/:userId/roles": {
    read: "admin",
    make: freshMember,
    at: (p) => memberAt(p, `/api/members/${p.userId}/roles`),
    write: {
      method: "PUT",
      as: "admin",
      bodies: [{ roles: ["sekretaris"] }, { roles: ["bendahara", "sekretaris"] }],
    },
  },
  "/api/members/:userId/person": {
    read: "sekretaris",
    make: freshMember,
    at: (p) => memberAt(p, `/api/members/${p.userId}/person`),
    write: {
      method: "PUT",
      as: "sekretaris",
      bodies: (w) => [{ personId: w.a.household.childMemberId }, { personId: null }],
    },
  },
  // Issue 44: the house the secretariat grants (a treasurer may live elsewhere, so null is a change).
  "/api/members/:userId/unit": {
    read: "sekretaris",
    make: freshMember,
    at: (p) => memberAt(p, `/api/members/${p.userId}/unit`),
    write: {
      method: "PUT",
      as: "sekretaris",
      bodies: (w) => [{ unitId: null }, { unitId: w.a.household.unitId }],
    },
  },
};

export const TAG = /^"(\d+)-[0-9a-f]{16}"$/;
export const versionOf = (etag: string | null) => Number(TAG.exec(etag ?? "")?.[1] ?? Number.NaN);
const fill = (path: string, params: Record<string, string>) =>
  path.replace(/:(\w+)/g, (_, name: string) => params[name] ?? `missing-${name}`);

/** The params of an object of the case's kind in tenant A. */
export async function paramsFor(world: World, path: string, c: Case): Promise<Record<string, string>> {
  if (c.make) {
    return c.make(world);
  }
  if (c.singleton) {
    return {};
  }
  const factory = FACTORIES[path];
  if (factory?.kind !== "tenant") {
    throw new Error(`no tenant factory for ${path}`);
  }
  return (await factory.make(world)).params;
}

/** Where the case's object is read and written. */
export function urlsOf(path: string, c: Case, params: Record<string, string>) {
  return c.at ? c.at(params) : { read: fill(path, params), write: fill(path, params) };
}

export function bodiesOf(world: World, c: Case): unknown[] {
  return typeof c.write.bodies === "function" ? c.write.bodies(world) : c.write.bodies;
}
