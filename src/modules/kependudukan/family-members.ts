import { and, eq, ne } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { Conflict } from "../../core/errors";
import { newId } from "../../core/ids";
import {
  cardOr404,
  checkNik,
  getFamilyCard,
  type MemberRow,
  memberOr404,
  registryConflict,
} from "./families";
import type { MemberInput, UpdateMemberInput } from "./schemas";
import { familyCards, familyMembers } from "./tables";

/** Members of a family card written: added, changed (the head moves with them), removed. */

export function memberValues(input: MemberInput, cardId: string, id: string, now: string) {
  return {
    id,
    familyCardId: cardId,
    name: input.name,
    nik: input.nik,
    relationship: input.relationship,
    sex: input.sex,
    birthDate: input.birthDate ?? null,
    birthPlace: input.birthPlace ?? null,
    religion: input.religion ?? null,
    education: input.education ?? null,
    occupation: input.occupation ?? null,
    maritalStatus: input.maritalStatus ?? null,
    citizenship: input.citizenship ?? "WNI",
    residenceStatus: input.residenceStatus ?? null,
    updatedAt: now,
  };
}

export async function addFamilyMember({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: MemberInput;
}) {
  checkNik(input.nik, { sex: input.sex, birthDate: input.birthDate });
  await cardOr404(ctx.db, id);
  const memberId = newId();
  try {
    await ctx.db.batch([
      ctx.db.insert(familyMembers).values(memberValues(input, id, memberId, ctx.now().toISOString())),
      audit(ctx, { action: "kk.member.add", targetType: "family_member", targetId: memberId }),
    ]);
  } catch (error) {
    registryConflict(error);
  }
  return getFamilyCard({ ctx, id });
}

/**
 * Partial update of a member. The NIK is checked against the member's sex and birth date as they will
 * be. Making someone `kepala_keluarga` moves the head: the former head becomes `famili_lain` (staff
 * set the right relationship next) and the card's head name and NIK follow, in the same batch. The
 * head cannot stop being the head any other way: a KK always has one.
 */
export async function updateFamilyMember({
  ctx,
  id,
  memberId,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  memberId: string;
  input: UpdateMemberInput;
}) {
  await cardOr404(ctx.db, id);
  const member = await memberOr404(ctx.db, id, memberId);
  const statements = memberUpdateStatements(ctx, member, input);
  statements.push(
    audit(ctx, {
      action: "kk.member.update",
      targetType: "family_member",
      targetId: memberId,
      detail: { familyCardId: id, fields: Object.keys(input) },
    }),
  );
  try {
    await ctx.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  } catch (error) {
    registryConflict(error);
  }
  return getFamilyCard({ ctx, id });
}

/**
 * The statements of a member's partial update, checked first; the caller adds its audit record (a
 * staff edit, or an accepted resident correction) to the same batch.
 */
export function memberUpdateStatements(
  ctx: TenantCtx,
  member: MemberRow,
  input: UpdateMemberInput,
): BatchItem<"sqlite">[] {
  const id = member.familyCardId;
  const memberId = member.id;
  const next = {
    nik: input.nik ?? member.nik,
    sex: input.sex ?? member.sex,
    birthDate: input.birthDate === undefined ? member.birthDate : input.birthDate,
  };
  if (input.nik !== undefined || input.sex !== undefined || input.birthDate !== undefined) {
    checkNik(next.nik, next);
  }
  const wasHead = member.relationship === "kepala_keluarga";
  if (wasHead && input.relationship !== undefined && input.relationship !== "kepala_keluarga") {
    throw new Conflict(
      "kk_head_required",
      "A family card always has a head: make another member kepala_keluarga instead.",
    );
  }
  const becomesHead = !wasHead && input.relationship === "kepala_keluarga";
  const isHead = wasHead || becomesHead;
  const now = ctx.now().toISOString();
  const living = input.livingStatus;
  const statements: BatchItem<"sqlite">[] = [];
  if (becomesHead) {
    statements.push(
      ctx.db
        .update(familyMembers)
        .set({ relationship: "famili_lain", updatedAt: now })
        .where(
          and(
            eq(familyMembers.familyCardId, id),
            eq(familyMembers.relationship, "kepala_keluarga"),
            ne(familyMembers.id, memberId),
          ),
        ),
    );
  }
  statements.push(
    ctx.db
      .update(familyMembers)
      .set({
        name: input.name,
        nik: input.nik,
        relationship: input.relationship,
        sex: input.sex,
        birthDate: input.birthDate,
        birthPlace: input.birthPlace,
        religion: input.religion,
        education: input.education,
        occupation: input.occupation,
        maritalStatus: input.maritalStatus,
        citizenship: input.citizenship,
        residenceStatus: input.residenceStatus,
        livingStatus: living,
        deathDate: living === "hidup" ? null : undefined,
        updatedAt: now,
      })
      .where(eq(familyMembers.id, memberId)),
  );
  if (isHead && (becomesHead || input.name !== undefined || input.nik !== undefined)) {
    statements.push(
      ctx.db
        .update(familyCards)
        .set({ headName: input.name ?? member.name, headNik: next.nik, updatedAt: now })
        .where(eq(familyCards.id, id)),
    );
  }
  return statements;
}

/** The head is removed only with the whole card (DELETE /kk/:id) or after another member became head. */
export async function deleteFamilyMember({
  ctx,
  id,
  memberId,
}: {
  ctx: TenantCtx;
  id: string;
  memberId: string;
}) {
  await cardOr404(ctx.db, id);
  const member = await memberOr404(ctx.db, id, memberId);
  if (member.relationship === "kepala_keluarga") {
    throw new Conflict(
      "kk_head_required",
      "The head of the family cannot be removed: make another member head first, or delete the card.",
    );
  }
  await ctx.db.batch([
    ctx.db.delete(familyMembers).where(eq(familyMembers.id, memberId)),
    audit(ctx, {
      action: "kk.member.delete",
      targetType: "family_member",
      targetId: memberId,
      detail: { familyCardId: id },
    }),
  ]);
  return getFamilyCard({ ctx, id });
}
