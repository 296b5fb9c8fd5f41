import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { audit } from "../../core/audit";
import type { TenantCtx, TenantDb } from "../../core/context";
import { NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { jakartaDay } from "../../core/time";
import { cardOr404, checkKkNumber, checkNik, getFamilyCard, registryConflict, unitRef } from "./families";
import type { CreateFamilyCardInput, UpdateFamilyCardInput } from "./schemas";
import { familyCards, familyMembers, vehicles } from "./tables";

/** Family cards written: created with their head, changed, deleted with everything on them. */

/** The statements that insert a new card with its head; the import and the mutasi reuse them. */
export function insertCardStatements(
  db: TenantDb,
  id: string,
  input: CreateFamilyCardInput,
  now: string,
): BatchItem<"sqlite">[] {
  return [
    db.insert(familyCards).values({
      id,
      kkNumber: input.kkNumber,
      unitId: input.unitId,
      headName: input.headName,
      headNik: input.headNik,
      headWhatsapp: input.headWhatsapp ?? null,
      notes: input.notes ?? null,
      updatedAt: now,
    }),
    db.insert(familyMembers).values({
      id: newId(),
      familyCardId: id,
      name: input.headName,
      nik: input.headNik,
      relationship: "kepala_keluarga",
      sex: input.headSex,
      birthDate: input.headBirthDate ?? null,
      birthPlace: input.headBirthPlace ?? null,
      religion: input.headReligion ?? null,
      education: input.headEducation ?? null,
      occupation: input.headOccupation ?? null,
      maritalStatus: input.headMaritalStatus ?? null,
      citizenship: input.headCitizenship ?? "WNI",
      residenceStatus: input.headResidenceStatus ?? null,
      updatedAt: now,
    }),
  ];
}

export function checkNewCard(input: CreateFamilyCardInput): void {
  checkKkNumber(input.kkNumber);
  checkNik(input.headNik, { sex: input.headSex, birthDate: input.headBirthDate }, "headNik");
}

/**
 * The card, its head (as a member) and the audit record go in one batch: a card without its head, or
 * without its record, never exists. No NIK or KK number in the audit detail: the audit log is read
 * more widely than the registry.
 */
export async function createFamilyCard({ ctx, input }: { ctx: TenantCtx; input: CreateFamilyCardInput }) {
  checkNewCard(input);
  if (!(await unitRef(ctx.db, input.unitId))) {
    throw new NotFound("Unit", "unit_not_found");
  }
  const id = newId();
  try {
    await ctx.db.batch([
      ...(insertCardStatements(ctx.db, id, input, ctx.now().toISOString()) as [BatchItem<"sqlite">]),
      audit(ctx, { action: "kk.create", targetType: "family_card", targetId: id }),
    ]);
  } catch (error) {
    registryConflict(error);
  }
  return getFamilyCard({ ctx, id });
}

export async function updateFamilyCard({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: UpdateFamilyCardInput;
}) {
  const card = await cardOr404(ctx.db, id);
  if (input.kkNumber !== undefined) {
    checkKkNumber(input.kkNumber);
  }
  if (input.unitId !== undefined && !(await unitRef(ctx.db, input.unitId))) {
    throw new NotFound("Unit", "unit_not_found");
  }
  const statusChanges = input.status !== undefined && input.status !== card.status;
  const statusDate =
    input.statusDate ??
    (statusChanges ? (input.status === "aktif" ? null : jakartaDay(ctx.now())) : undefined);
  try {
    await ctx.db.batch([
      ctx.db
        .update(familyCards)
        .set({
          kkNumber: input.kkNumber,
          unitId: input.unitId,
          headWhatsapp: input.headWhatsapp,
          status: input.status,
          statusDate,
          notes: input.notes,
          updatedAt: ctx.now().toISOString(),
        })
        .where(eq(familyCards.id, id)),
      audit(ctx, {
        action: "kk.update",
        targetType: "family_card",
        targetId: id,
        detail: { fields: Object.keys(input), ...(statusChanges ? { status: input.status } : {}) },
      }),
    ]);
  } catch (error) {
    registryConflict(error);
  }
  return getFamilyCard({ ctx, id });
}

/** The card, its members and its vehicles go in one batch with the audit record. */
export async function deleteFamilyCard({ ctx, id }: { ctx: TenantCtx; id: string }) {
  await cardOr404(ctx.db, id);
  await ctx.db.batch([
    ctx.db.delete(vehicles).where(eq(vehicles.familyCardId, id)),
    ctx.db.delete(familyMembers).where(eq(familyMembers.familyCardId, id)),
    ctx.db.delete(familyCards).where(eq(familyCards.id, id)),
    audit(ctx, { action: "kk.delete", targetType: "family_card", targetId: id }),
  ]);
}
