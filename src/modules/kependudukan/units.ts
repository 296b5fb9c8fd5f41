import { and, asc, eq, gte, isNotNull, or, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { isUniqueViolation } from "../../core/db/errors";
import { inList, notInList } from "../../core/db/lists";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowByIdOrNotFound } from "../../core/db/rows";
import { Conflict, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { normaliseBlock, normaliseHouseNumber } from "../../core/schemas";
import type { CreateUnitInput, UnitListQuery, UpdateUnitInput } from "./schemas";
import { familyCards, units } from "./tables";

/**
 * The registry's houses (units) and the reads other modules use (re-exported by service.ts). This file
 * imports no other module: identity, residents,
 * finance and surat build on it, so no import cycle forms through it. The registry's own verbs that
 * must act on others (a house request granted, a family's move-out: mutasi.ts) import their services.
 */

export async function getUnit({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return rowByIdOrNotFound(ctx.db, units, id, "Unit");
}

export async function listUnits({ ctx, input }: { ctx: TenantCtx; input: UnitListQuery }) {
  const rows = await ctx.db
    .select()
    .from(units)
    .where(
      and(
        ...afterCursor(units.id, input.cursor, "asc"),
        ...(input.block ? [eq(units.block, input.block)] : []),
      ),
    )
    .orderBy(asc(units.id))
    .limit(input.limit + 1);
  return keysetPage(rows, input.limit);
}

export async function createUnit({ ctx, input }: { ctx: TenantCtx; input: CreateUnitInput }) {
  const id = newId();
  try {
    const [[unit]] = await ctx.db.batch([
      ctx.db
        .insert(units)
        .values({
          id,
          block: input.block,
          number: input.number,
          latitude: input.latitude ?? null,
          longitude: input.longitude ?? null,
          occupancy: input.occupancy ?? null,
          updatedAt: ctx.now().toISOString(),
        })
        .returning(),
      audit(ctx, {
        action: "unit.create",
        targetType: "unit",
        targetId: id,
        detail: { block: input.block, number: input.number },
      }),
    ]);
    if (!unit) {
      throw new Error("insert returned no row");
    }
    return unit;
  } catch (error) {
    if (isUniqueViolation(error, "units.block")) {
      throw new Conflict("unit_exists", `Unit ${input.block} ${input.number} already exists.`);
    }
    throw error;
  }
}

export async function updateUnit({ ctx, id, input }: { ctx: TenantCtx; id: string; input: UpdateUnitInput }) {
  const current = await getUnit({ ctx, id });
  try {
    const [[unit]] = await ctx.db.batch([
      ctx.db
        .update(units)
        .set({ ...input, updatedAt: ctx.now().toISOString() })
        .where(eq(units.id, id))
        .returning(),
      audit(ctx, {
        action: "unit.update",
        targetType: "unit",
        targetId: id,
        detail: { fields: Object.keys(input) },
      }),
    ]);
    if (!unit) {
      throw new NotFound("Unit");
    }
    return unit;
  } catch (error) {
    if (isUniqueViolation(error, "units.block")) {
      const block = input.block ?? current.block;
      const number = input.number ?? current.number;
      throw new Conflict("unit_exists", `Unit ${block} ${number} already exists.`);
    }
    throw error;
  }
}

/**
 * Removes a unit nobody uses. `residents` is how many resident accounts name it as their house: the
 * route asks identity (the registry does not import identity), the verb checks the registry itself.
 */
export async function deleteUnit({ ctx, id, residents }: { ctx: TenantCtx; id: string; residents: number }) {
  await getUnit({ ctx, id });
  const cards = await ctx.db.$count(familyCards, eq(familyCards.unitId, id));
  if (cards > 0 || residents > 0) {
    throw new Conflict(
      "unit_in_use",
      `The unit is still used by ${cards} family card(s) and ${residents} resident account(s).`,
    );
  }
  await ctx.db.batch([
    ctx.db.delete(units).where(eq(units.id, id)),
    audit(ctx, { action: "unit.delete", targetType: "unit", targetId: id }),
  ]);
}

/** Units with coordinates as GeoJSON points ([longitude, latitude], RFC 7946), with who lives there. */
export async function unitsGeoJson({ ctx, block }: { ctx: TenantCtx; block?: string }) {
  const rows = await ctx.db
    .select({
      id: units.id,
      block: units.block,
      number: units.number,
      occupancy: units.occupancy,
      latitude: units.latitude,
      longitude: units.longitude,
      families: sql<number>`(select count(*) from "family_cards" c where c."unit_id" = "units"."id" and c."status" = 'aktif')`,
      persons: sql<number>`(select count(*) from "family_members" m join "family_cards" c on c."id" = m."family_card_id" where c."unit_id" = "units"."id" and c."status" = 'aktif' and m."living_status" = 'hidup')`,
    })
    .from(units)
    .where(
      and(isNotNull(units.latitude), isNotNull(units.longitude), ...(block ? [eq(units.block, block)] : [])),
    )
    .orderBy(asc(units.id));
  return {
    type: "FeatureCollection" as const,
    features: rows.map((u) => ({
      type: "Feature" as const,
      id: u.id,
      geometry: {
        type: "Point" as const,
        coordinates: [u.longitude ?? 0, u.latitude ?? 0] as [number, number],
      },
      properties: {
        block: u.block,
        number: u.number,
        occupancy: u.occupancy,
        families: Number(u.families),
        persons: Number(u.persons),
      },
    })),
  };
}

/**
 * The unit a resident asked for (a `rumah` request or an application), created on first use when staff
 * grant it: only staff create units (issue 44), never the resident's own profile. Not audited here: it
 * is part of the staff decision, which its caller records. Insert-or-ignore then read, in one batch, so
 * two decisions naming one house at once share a single row.
 */
export async function findOrCreateUnit({
  ctx,
  input,
}: {
  ctx: Pick<TenantCtx, "db" | "now">;
  input: { block: string; number: string };
}) {
  const block = normaliseBlock(input.block);
  const number = normaliseHouseNumber(input.number);
  const [, rows] = await ctx.db.batch([
    ctx.db
      .insert(units)
      .values({ id: newId(), block, number, updatedAt: ctx.now().toISOString() })
      .onConflictDoNothing({ target: [units.block, units.number] }),
    ctx.db
      .select()
      .from(units)
      .where(and(eq(units.block, block), eq(units.number, number))),
  ]);
  const unit = rows[0];
  if (!unit) {
    throw new Error("unit vanished after insert");
  }
  return unit;
}

/**
 * The unit at a block and number as someone says them at the gate (normalised as the registry writes
 * them), or null: a lookup only, never a new unit (the visitor module's walk-ins, issue 45).
 */
export async function unitByAddress({
  ctx,
  block,
  number,
}: {
  ctx: Pick<TenantCtx, "db">;
  block: string;
  number: string;
}) {
  return (
    (await ctx.db
      .select({ id: units.id, block: units.block, number: units.number })
      .from(units)
      .where(and(eq(units.block, normaliseBlock(block)), eq(units.number, normaliseHouseNumber(number))))
      .get()) ?? null
  );
}

function unitsQuery(db: TenantCtx["db"], ids: readonly string[]) {
  return db
    .select({ id: units.id, block: units.block, number: units.number })
    .from(units)
    .where(inList(units.id, ids));
}

/** Block and number of the given units, for views that show residents with their houses. */
export async function unitsByIds({ ctx, ids }: { ctx: Pick<TenantCtx, "db">; ids: readonly string[] }) {
  const unique = [...new Set(ids)];
  // One statement whatever the count. The arrears of every house once made 23 queries in a row.
  const rows = unique.length === 0 ? [] : await unitsQuery(ctx.db, unique);
  return new Map(rows.map((row) => [row.id, row]));
}

// The registry as a workbook's sheets (KK, Anggota, Kendaraan, Unit): the community archive's handover pack.
/** Head, house and status of the given family cards (whatever their status), for finance's debt list. */
export async function familyCardsByIds({ ctx, ids }: { ctx: Pick<TenantCtx, "db">; ids: readonly string[] }) {
  const found = new Map<
    string,
    {
      id: string;
      unitId: string;
      headName: string;
      headWhatsapp: string | null;
      status: string;
      statusDate: string | null;
    }
  >();
  const unique = [...new Set(ids)];
  if (unique.length === 0) {
    return found;
  }
  const rows = await ctx.db
    .select({
      id: familyCards.id,
      unitId: familyCards.unitId,
      headName: familyCards.headName,
      headWhatsapp: familyCards.headWhatsapp,
      status: familyCards.status,
      statusDate: familyCards.statusDate,
    })
    .from(familyCards)
    .where(inList(familyCards.id, unique));
  for (const row of rows) {
    found.set(row.id, row);
  }
  return found;
}

/**
 * The houses of the given units (block and number) and the kepala keluarga of the active family card
 * living in each (the oldest card when a house holds more than one), with the WhatsApp number on the
 * card: the arrears list names the family to remind (issue 45). One batch of two statements, the ids
 * as one JSON parameter like `unitsByIds`.
 */
export async function housesAt({ ctx, unitIds }: { ctx: Pick<TenantCtx, "db">; unitIds: readonly string[] }) {
  const heads = new Map<string, { name: string; whatsapp: string | null }>();
  const unique = [...new Set(unitIds)];
  if (unique.length === 0) {
    return { units: new Map<string, { id: string; block: string; number: string }>(), heads };
  }
  const [unitRows, headRows] = await ctx.db.batch([
    unitsQuery(ctx.db, unique),
    ctx.db
      .select({ unitId: familyCards.unitId, name: familyCards.headName, whatsapp: familyCards.headWhatsapp })
      .from(familyCards)
      .where(and(eq(familyCards.status, "aktif"), inList(familyCards.unitId, unique)))
      .orderBy(asc(familyCards.id)),
  ]);
  for (const row of headRows) {
    if (!heads.has(row.unitId)) {
      heads.set(row.unitId, { name: row.name, whatsapp: row.whatsapp });
    }
  }
  return { units: new Map(unitRows.map((row) => [row.id, row])), heads };
}

// Registry of family cards and their members (families.ts); letters read households through these.
// One registry person, what an account links to (identity's memberships.person_id).

/** First day of a `YYYY-MM` period. */
function periodStart(period: string): string {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(period)) {
    throw new Error(`period must be YYYY-MM, got ${period}`);
  }
  return `${period}-01`;
}

/**
 * Who a period's dues of one basis go to (`YYYY-MM`, Asia/Jakarta), as a query of `{ t, u, f }`: the
 * target (the unit, or the family card), its unit, and the card (null per unit). The finance module bills
 * and previews through this query, composing it into its own statements (a count, a join with the bills
 * already issued), and never names the registry's tables.
 * - Per unit: every unit, less the `kosong` ones unless `includeEmpty` (finance's `billEmptyUnits`).
 * - Per KK: every family card with its unit. A family that moved out (life event `pindah_keluar`, status
 *   `pindah`) or whose last member died (status `meninggal`) is billed for the period of that day and
 *   left out from the next period on.
 * Targets at the units in `exempt` are left out; the list travels as one JSON parameter, however long.
 */
export function billingTargetsQuery(
  db: TenantCtx["db"],
  {
    period,
    basis,
    includeEmpty,
    exempt,
  }: { period: string; basis: "unit" | "kk"; includeEmpty: boolean; exempt: readonly string[] },
) {
  if (basis === "unit") {
    // A unit whose occupancy is not recorded is billed.
    const billedUnit = includeEmpty ? undefined : sql`coalesce(${units.occupancy}, '') <> 'kosong'`;
    return db
      .select({
        t: sql<string>`${units.id}`.as("t"),
        u: sql<string>`${units.id}`.as("u"),
        f: sql<string | null>`NULL`.as("f"),
      })
      .from(units)
      .where(and(billedUnit, notInList(units.id, exempt)));
  }
  const start = periodStart(period);
  return db
    .select({
      t: sql<string>`${familyCards.id}`.as("t"),
      u: sql<string>`${familyCards.unitId}`.as("u"),
      f: sql<string | null>`${familyCards.id}`.as("f"),
    })
    .from(familyCards)
    .where(
      and(
        or(eq(familyCards.status, "aktif"), gte(familyCards.statusDate, start)),
        notInList(familyCards.unitId, exempt),
      ),
    );
}
// A member's request for a house (issue 44), filed by identity's profile and shown on it.
