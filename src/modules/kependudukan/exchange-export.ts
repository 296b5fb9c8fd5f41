import { asc, eq, gt, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx, TenantDb } from "../../core/context";
import { log } from "../../core/http/log";
import { displayPlate } from "../../core/plate";
import {
  type CellOut,
  type Column,
  type SheetStream,
  streamCsv,
  streamWorkbook,
} from "../../platform/spreadsheets";
import { familyCards, familyMembers, units, vehicles } from "./tables";

/**
 * The registry as a spreadsheet: the export writes four sheets with Indonesian headers, which the
 * import (`exchange.ts`) reads back. Identity numbers (NIK, KK number, WhatsApp) and dates are declared
 * with their column, so both the .xlsx and the CSV write them as text and as `YYYY-MM-DD` (ADR 0022).
 */

const identity = (header: string): Column => ({ header, kind: "identity" });
const date = (header: string): Column => ({ header, kind: "date" });

const KK_HEADER: readonly Column[] = [
  identity("No. KK"),
  "Blok",
  "No. Rumah",
  "Kepala Keluarga",
  identity("NIK Kepala"),
  identity("WhatsApp"),
  "Status",
  date("Tanggal Status"),
  "Catatan",
  "Jumlah Anggota",
];
export const MEMBER_HEADER: readonly Column[] = [
  identity("No. KK"),
  "Blok",
  "No. Rumah",
  identity("NIK"),
  "Nama",
  "Hubungan",
  "Jenis Kelamin",
  "Tempat Lahir",
  date("Tanggal Lahir"),
  "Agama",
  "Pendidikan",
  "Pekerjaan",
  "Status Perkawinan",
  "Kewarganegaraan",
  "Status Hidup",
  date("Tanggal Meninggal"),
  "Status Tinggal",
];
const VEHICLE_HEADER: readonly Column[] = [
  identity("No. KK"),
  "Plat Nomor",
  "Jenis",
  "Merek",
  "Model",
  "Warna",
];
const UNIT_HEADER: readonly Column[] = ["Blok", "No. Rumah", "Hunian", "Lintang", "Bujur"];

/** Rows per read: a page is all the export holds in memory at once (one D1 round trip each). */
const PAGE = 1000;

/** Keyset pages of a query ordered by `id`, read one at a time as the writer asks for them. */
async function* pages<T extends { id: string }>(
  read: (after: string | null) => Promise<T[]>,
  present: (row: T) => CellOut[],
): AsyncGenerator<CellOut[][]> {
  let after: string | null = null;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) {
      yield rows.map(present);
    }
    if (rows.length < PAGE) {
      return;
    }
    after = rows.at(-1)?.id ?? null;
  }
}

/** Every member with their card's number and house, by id: one joined read a page. */
function memberPages(db: TenantDb) {
  return pages(
    (after) =>
      db
        .select({
          id: familyMembers.id,
          kkNumber: familyCards.kkNumber,
          block: units.block,
          number: units.number,
          nik: familyMembers.nik,
          name: familyMembers.name,
          relationship: familyMembers.relationship,
          sex: familyMembers.sex,
          birthPlace: familyMembers.birthPlace,
          birthDate: familyMembers.birthDate,
          religion: familyMembers.religion,
          education: familyMembers.education,
          occupation: familyMembers.occupation,
          maritalStatus: familyMembers.maritalStatus,
          citizenship: familyMembers.citizenship,
          livingStatus: familyMembers.livingStatus,
          deathDate: familyMembers.deathDate,
          residenceStatus: familyMembers.residenceStatus,
        })
        .from(familyMembers)
        .leftJoin(familyCards, eq(familyCards.id, familyMembers.familyCardId))
        .leftJoin(units, eq(units.id, familyCards.unitId))
        .where(after ? gt(familyMembers.id, after) : undefined)
        .orderBy(asc(familyMembers.id))
        .limit(PAGE),
    (m) => [
      m.kkNumber,
      m.block,
      m.number,
      m.nik,
      m.name,
      m.relationship,
      m.sex,
      m.birthPlace,
      m.birthDate,
      m.religion,
      m.education,
      m.occupation,
      m.maritalStatus,
      m.citizenship,
      m.livingStatus,
      m.deathDate,
      m.residenceStatus,
    ],
  );
}

function cardPages(db: TenantDb) {
  return pages(
    (after) =>
      db
        .select({
          id: familyCards.id,
          kkNumber: familyCards.kkNumber,
          block: units.block,
          number: units.number,
          headName: familyCards.headName,
          headNik: familyCards.headNik,
          headWhatsapp: familyCards.headWhatsapp,
          status: familyCards.status,
          statusDate: familyCards.statusDate,
          notes: familyCards.notes,
          members: sql<number>`(select count(*) from ${familyMembers} where ${familyMembers.familyCardId} = ${familyCards.id})`,
        })
        .from(familyCards)
        .leftJoin(units, eq(units.id, familyCards.unitId))
        .where(after ? gt(familyCards.id, after) : undefined)
        .orderBy(asc(familyCards.id))
        .limit(PAGE),
    (c) => [
      c.kkNumber,
      c.block,
      c.number,
      c.headName,
      c.headNik,
      c.headWhatsapp,
      c.status,
      c.statusDate,
      c.notes,
      Number(c.members),
    ],
  );
}

function vehiclePages(db: TenantDb) {
  return pages(
    (after) =>
      db
        .select({
          id: vehicles.id,
          kkNumber: familyCards.kkNumber,
          plate: vehicles.plate,
          kind: vehicles.kind,
          brand: vehicles.brand,
          model: vehicles.model,
          colour: vehicles.colour,
        })
        .from(vehicles)
        .leftJoin(familyCards, eq(familyCards.id, vehicles.familyCardId))
        .where(after ? gt(vehicles.id, after) : undefined)
        .orderBy(asc(vehicles.id))
        .limit(PAGE),
    (v) => [v.kkNumber, displayPlate(v.plate) ?? v.plate, v.kind, v.brand, v.model, v.colour],
  );
}

function unitPages(db: TenantDb) {
  return pages(
    (after) =>
      db
        .select({
          id: units.id,
          block: units.block,
          number: units.number,
          occupancy: units.occupancy,
          latitude: units.latitude,
          longitude: units.longitude,
        })
        .from(units)
        .where(after ? gt(units.id, after) : undefined)
        .orderBy(asc(units.id))
        .limit(PAGE),
    (u) => [u.block, u.number, u.occupancy, u.latitude, u.longitude],
  );
}

/**
 * The whole registry: `xlsx` (sheets KK, Anggota, Kendaraan, Unit) or `csv` (Anggota), streamed: the
 * answer starts once the export is audited, and each sheet is read from D1 in keyset pages as the
 * client takes the bytes, so memory holds one page, never the registry (18,000 persons fit a Worker
 * with room to spare; see ADR spreadsheets). Pages are separate reads, as any export of this size must
 * be: a change made while the file is being written may or may not be in it. NIK and KK numbers are
 * whole: the route is the secretary's and the admin's only. The audit record says who exported, and
 * how much, not what.
 */
/**
 * A read that fails once the answer has started cannot become a problem response: the stream is cut
 * (the client's file is incomplete, never silently short) and the failure is logged here.
 */
async function* logged(ctx: TenantCtx, sheet: string, source: AsyncGenerator<CellOut[][]>) {
  try {
    yield* source;
  } catch (error) {
    log("error", "registry_export_failed", {
      requestId: ctx.requestId,
      sheet,
      reason: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}

/**
 * The registry's four sheets (KK, Anggota, Kendaraan, Unit), each read in keyset pages when the writer
 * reaches it: the export route's workbook, and the handover pack's registry in a community's archive.
 */
export function registrySheets(ctx: TenantCtx): SheetStream[] {
  return [
    {
      name: "KK",
      header: KK_HEADER,
      widths: [20, 8, 10, 28, 20, 16, 10, 14, 30, 8],
      pages: () => logged(ctx, "KK", cardPages(ctx.db)),
    },
    {
      name: "Anggota",
      header: MEMBER_HEADER,
      widths: [20, 8, 10, 20, 28, 16, 6, 16, 12],
      pages: () => logged(ctx, "Anggota", memberPages(ctx.db)),
    },
    {
      name: "Kendaraan",
      header: VEHICLE_HEADER,
      pages: () => logged(ctx, "Kendaraan", vehiclePages(ctx.db)),
    },
    { name: "Unit", header: UNIT_HEADER, pages: () => logged(ctx, "Unit", unitPages(ctx.db)) },
  ];
}

export async function exportRegistry({ ctx, format }: { ctx: TenantCtx; format: "xlsx" | "csv" }) {
  const counts = await ctx.db
    .select({
      families: sql<number>`count(*)`,
      members: sql<number>`(select count(*) from ${familyMembers})`,
    })
    .from(familyCards)
    .get();
  const families = Number(counts?.families ?? 0);
  const members = Number(counts?.members ?? 0);
  await ctx.db.batch([
    audit(ctx, {
      action: "kependudukan.export",
      targetType: "registry",
      targetId: ctx.tenant.id,
      detail: { format, families, members },
    }),
  ]);
  if (format === "csv") {
    return { body: streamCsv(MEMBER_HEADER, logged(ctx, "Anggota", memberPages(ctx.db))), rows: members };
  }
  const body = streamWorkbook(registrySheets(ctx));
  return { body, rows: members };
}
