import { and, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Invalid, InvalidTransition, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { Line } from "../../core/schemas";
import { getMember, setMemberUnit } from "../identity/service";
import { houseOf, present } from "./correction-view";
import { householdMembers, registryConflict } from "./families";
import { memberUpdateStatements } from "./family-members";
import { isPersonAt } from "./persons";
import type {
  CorrectionInput,
  CorrectionListQuery,
  DecideCorrectionInput,
  UpdateMemberInput,
} from "./schemas";
import { findOrCreateUnit } from "./service";
import {
  corrections,
  EDUCATIONS,
  familyMembers,
  MARITAL_STATUSES,
  RELIGIONS,
  RESIDENCE_STATUSES,
} from "./tables";

type CorrectionRow = typeof corrections.$inferSelect;

/** How each correctable field's value is read: the same rules as a staff edit. */
const FIELD_VALUES: Record<Exclude<CorrectionInput["field"], "lainnya">, z.ZodType> = {
  name: Line(120, 2),
  nik: z.string().regex(/^\d{16}$/, "NIK is 16 digits"),
  sex: z.enum(["L", "P"]),
  birthDate: z.iso.date(),
  birthPlace: Line(80, 2),
  religion: z.enum(RELIGIONS),
  education: z.enum(EDUCATIONS),
  occupation: Line(80),
  maritalStatus: z.enum(MARITAL_STATUSES),
  citizenship: z.enum(["WNI", "WNA"]),
  residenceStatus: z.enum(RESIDENCE_STATUSES),
};

function parsedValue(field: CorrectionInput["field"], value: string): UpdateMemberInput {
  if (field === "lainnya") {
    return {};
  }
  const result = FIELD_VALUES[field].safeParse(value);
  if (!result.success) {
    throw new Invalid("invalid_input", `The value is not a valid ${field}.`, [
      { field: "value", message: result.error.issues[0]?.message ?? "invalid" },
    ]);
  }
  return { [field]: result.data } as UpdateMemberInput;
}

async function memberNames(ctx: TenantCtx, rows: CorrectionRow[]) {
  const ids = [...new Set(rows.map((r) => r.memberId).filter((id): id is string => id !== null))];
  const names = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 90) {
    const found = await ctx.db
      .select({ id: familyMembers.id, name: familyMembers.name })
      .from(familyMembers)
      .where(inArray(familyMembers.id, ids.slice(i, i + 90)));
    for (const m of found) {
      names.set(m.id, m.name);
    }
  }
  return names;
}

/**
 * A resident proposes a correction to their own household (`unitId` comes from their profile, through
 * the route). The member must be in that household; the value must be valid for the field. Not
 * audited: it changes nothing yet, and the row itself records who asked.
 */
export async function proposeCorrection({
  ctx,
  unitId,
  input,
}: {
  ctx: TenantCtx;
  unitId: string;
  input: CorrectionInput;
}) {
  const actor = requireUser(ctx);
  parsedValue(input.field, input.value);
  let memberName: string | null = null;
  if (input.memberId) {
    const member = (await householdMembers({ ctx, id: unitId })).find((m) => m.id === input.memberId);
    if (!member) {
      throw new NotFound("Household member", "household_member_not_found");
    }
    memberName = member.name;
  }
  const [row] = await ctx.db
    .insert(corrections)
    .values({
      id: newId(),
      userId: actor.userId,
      unitId,
      memberId: input.memberId ?? null,
      field: input.field,
      value: input.value,
      note: input.note ?? null,
    })
    .returning();
  if (!row) {
    throw new Error("insert returned no row");
  }
  return present(row, memberName, false);
}

/** Staff see every correction (values whole); a resident sees their own (a proposed NIK masked). */
export async function listCorrections({ ctx, input }: { ctx: TenantCtx; input: CorrectionListQuery }) {
  const staff = hasRole(ctx, ROLES.SECRETARIAT);
  const filters: SQL[] = afterCursor(corrections.id, input.cursor, "desc");
  if (!staff) {
    filters.push(eq(corrections.userId, requireUser(ctx).userId));
  }
  if (input.status) {
    filters.push(eq(corrections.status, input.status));
  }
  if (input.field) {
    filters.push(eq(corrections.field, input.field));
  }
  // The member each correction is about, named in the same statement (a house correction has none).
  const rows = await ctx.db
    .select({ correction: corrections, memberName: familyMembers.name })
    .from(corrections)
    .leftJoin(familyMembers, eq(familyMembers.id, corrections.memberId))
    .where(and(...filters))
    .orderBy(desc(corrections.id))
    .limit(input.limit + 1);
  const page = keysetPage(
    rows.map((r) => ({ ...r, id: r.correction.id })),
    input.limit,
  );
  return {
    items: page.items.map((r) => present(r.correction, r.memberName, staff)),
    nextCursor: page.nextCursor,
  };
}

type CorrectionStatus = CorrectionRow["status"];

/** A correction is decided once: `diajukan → diterima | ditolak`, then final. */
const CORRECTION_NEXT: Record<CorrectionStatus, CorrectionStatus[]> = {
  diajukan: ["diterima", "ditolak"],
  diterima: [],
  ditolak: [],
};

/** A house or member correction whose subject is gone can still be rejected, never accepted. */
const ONLY_REJECT = CORRECTION_NEXT.diajukan.filter((s) => s !== "diterima");

/**
 * Staff accept (the change is applied to the member in the same batch as the decision and its audit
 * record) or reject with a reason. Only a proposed correction can be decided, once.
 */
export async function decideCorrection({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: DecideCorrectionInput;
}) {
  const actor = requireUser(ctx);
  const row = await rowById(ctx.db, corrections, id);
  if (!row) {
    throw new NotFound("Correction");
  }
  if (row.status !== "diajukan") {
    throw new InvalidTransition(`This correction was already ${row.status}.`, CORRECTION_NEXT[row.status]);
  }
  const statements: BatchItem<"sqlite">[] = [];
  let memberName: string | null = null;
  const house = houseOf(row);
  // An accepted `rumah` request: the member must still belong here; the unit is the registry's, created
  // now if new (by staff, the only ones who create units).
  let grant: { unitId: string; keepPerson: boolean } | null = null;
  if (input.status === "diterima" && house) {
    const member = await getMember({ ctx, id: row.userId }).catch((error: unknown) => {
      if (error instanceof NotFound) {
        throw new InvalidTransition("The resident who asked is no longer a member here.", ONLY_REJECT);
      }
      throw error;
    });
    const unit = await findOrCreateUnit({ ctx, input: house });
    grant = {
      unitId: unit.id,
      keepPerson: await isPersonAt({ ctx, personId: member.personId, unitId: unit.id }),
    };
  }
  if (input.status === "diterima" && row.field !== "lainnya" && row.field !== "rumah" && row.memberId) {
    const member = await rowById(ctx.db, familyMembers, row.memberId);
    if (!member) {
      throw new InvalidTransition(
        "The member this correction is about is no longer registered.",
        ONLY_REJECT,
      );
    }
    memberName = member.name;
    statements.push(...memberUpdateStatements(ctx, member, parsedValue(row.field, row.value)));
  }
  const now = ctx.now().toISOString();
  statements.push(
    ctx.db
      .update(corrections)
      .set({ status: input.status, reason: input.reason ?? null, decidedBy: actor.userId, decidedAt: now })
      .where(and(eq(corrections.id, id), eq(corrections.status, "diajukan"))),
    abortBatchUnless(ctx.db, corrections, id, eq(corrections.decidedAt, now)),
    audit(ctx, {
      action: input.status === "diterima" ? "kk.correction.accept" : "kk.correction.reject",
      targetType: "correction",
      targetId: id,
      detail: { field: row.field, memberId: row.memberId, ...(grant ? { unitId: grant.unitId } : {}) },
    }),
  );
  try {
    await ctx.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    if (isBatchAborted(error)) {
      const fresh = await rowById(ctx.db, corrections, id);
      throw new InvalidTransition(
        "This correction was decided meanwhile.",
        CORRECTION_NEXT[fresh?.status ?? "ditolak"],
      );
    }
    registryConflict(error);
  }
  if (grant) {
    // The platform's membership after the tenant's decision: a failure here leaves an accepted request
    // the secretariat can grant by hand (PUT /api/members/:userId/unit), never a house without a decision.
    await setMemberUnit({ ctx, id: row.userId, ...grant, via: "request" });
  }
  const updated = await rowById(ctx.db, corrections, id);
  if (!updated) {
    throw new NotFound("Correction");
  }
  if (memberName === null && updated.memberId) {
    memberName = (await memberNames(ctx, [updated])).get(updated.memberId) ?? null;
  }
  return present(updated, memberName, true);
}
