import { eq } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { rowById } from "../../core/db/rows";
import { Invalid, NotFound, Unprocessable } from "../../core/errors";
import type { ImageUpload } from "../../core/files";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { addDays, DAY_MS, jakartaDay, jakartaDayStart, nowIso } from "../../core/time";
import { tellResident } from "../../platform/notify";
import { planTenantFileDeletion, prepareTenantFile, serveAuthorisedTenantFile } from "../../platform/uploads";
import { requireCompleteProfile, residentsOf } from "../identity/service";
import { unitByAddress } from "../kependudukan/service";
import { visitorQuota } from "./limits";
import type { CreateVisitorInput, WalkInInput } from "./schemas";
import { requireRecordedFields } from "./settings";
import { visitors } from "./tables";
import { isHostOf, presentVisitor, VISIT_GRACE_MS, type VisitorRow } from "./visitors";

const MAX_AHEAD_DAYS = 90;
const MAX_STAY_DAYS = 30;

/** The last day of a requested stay, checked: on or after the visit's day, at most 30 days after it. */
function checkedStay(visitAt: Date, stayUntil: string | undefined): string | null {
  if (stayUntil === undefined) {
    return null;
  }
  const last = jakartaDayStart(stayUntil, "stayUntil");
  const first = jakartaDayStart(jakartaDay(visitAt));
  if (last < first || last.getTime() - first.getTime() > MAX_STAY_DAYS * DAY_MS) {
    throw new Invalid("stay_too_long", "A stay ends on or after the visit's day, at most 30 days later.", [
      { field: "stayUntil", message: "before the visit or more than 30 days after it" },
    ]);
  }
  return stayUntil;
}

export async function createVisitor({ ctx, input }: { ctx: TenantCtx; input: CreateVisitorInput }) {
  const residentId = requireUser(ctx).userId;
  const { unitId } = await requireCompleteProfile({ ctx });
  const visitAt = new Date(input.visitAt);
  const now = ctx.now().getTime();
  if (visitAt.getTime() < now - VISIT_GRACE_MS) {
    throw new Invalid("visit_in_past", "The visit is more than an hour in the past.", [
      { field: "visitAt", message: "more than an hour ago" },
    ]);
  }
  if (visitAt > addDays(now, MAX_AHEAD_DAYS)) {
    throw new Invalid("visit_too_far", "Register visits at most 90 days ahead.", [
      { field: "visitAt", message: "more than 90 days ahead" },
    ]);
  }
  const stayUntil = checkedStay(visitAt, input.stayUntil);
  await requireRecordedFields(ctx, input);
  await visitorQuota(ctx, "tamu-create:member");
  const [row] = await ctx.db
    .insert(visitors)
    .values({
      id: newId(),
      residentId,
      unitId,
      guestName: input.guestName,
      purpose: input.purpose,
      visitAt: visitAt.toISOString(),
      vehiclePlate: input.vehiclePlate ?? null,
      identity: input.identity ?? null,
      stayUntil,
      status: "menunggu",
      updatedAt: nowIso(ctx),
    })
    .returning();
  if (!row) {
    throw new Error("insert returned no row");
  }
  return presentVisitor(ctx, row, { withPass: true });
}

const CATEGORY_WORDS: Record<NonNullable<VisitorRow["category"]>, string> = {
  tamu: "Tamu",
  ojol: "Ojek online",
  kurir: "Kurir",
  keluarga: "Keluarga",
  layanan: "Layanan",
  lainnya: "Lainnya",
};

/**
 * The guard registers a guest who came to the gate unannounced (issue 45): waiting for the host's
 * household (from their phone), staff, or the guard after calling the host. The house is named by block
 * and number (422 `unknown_house` when the registry has none, 422 `no_host` when nobody there has an
 * account to answer: staff decide then). Every resident account of the house is told. Audited.
 */
export async function createWalkIn({ ctx, input }: { ctx: TenantCtx; input: WalkInInput }) {
  const guard = requireUser(ctx).userId;
  const unit = await unitByAddress({ ctx, block: input.block, number: input.number });
  if (!unit) {
    throw new Unprocessable("unknown_house", "The registry has no house at that block and number.", [
      { field: "number", message: "no such house" },
    ]);
  }
  const hosts = (await residentsOf({ ctx })).filter((r) => r.unitId === unit.id).map((r) => r.userId);
  const [host] = hosts;
  if (!host) {
    throw new Unprocessable("no_host", "Nobody at that house has an account to answer; ask the staff.", [
      { field: "number", message: "no resident account at this house" },
    ]);
  }
  const now = nowIso(ctx);
  const id = newId();
  const [[row]] = await ctx.db.batch([
    ctx.db
      .insert(visitors)
      .values({
        id,
        residentId: host,
        unitId: unit.id,
        guestName: input.guestName,
        purpose: input.purpose ?? CATEGORY_WORDS[input.category],
        category: input.category,
        visitAt: now,
        vehiclePlate: input.vehiclePlate ?? null,
        identity: input.identity ?? null,
        registeredBy: guard,
        status: "menunggu",
        updatedAt: now,
      })
      .returning(),
    audit(ctx, { action: "visitor.walk_in", targetType: "visitor", targetId: id }),
  ]);
  if (!row) {
    throw new Error("insert returned no row");
  }
  const what = `${CATEGORY_WORDS[input.category]} ${row.guestName}`;
  await Promise.all(
    hosts.map((userId) =>
      tellResident(ctx, userId, {
        subject: "Tamu menunggu di gerbang",
        text:
          `${what} menunggu di gerbang untuk rumah ${unit.block}/${unit.number}. ` +
          `Setujui atau tolak di aplikasi: ${ctx.config.APP_URL}/tamu`,
        idempotencyKey: `visitor-walk-in:${ctx.tenant.slug}:${id}:${userId}`,
      }),
    ),
  );
  return presentVisitor(ctx, row);
}

/**
 * The guard attaches a photo to a walk-in, when registering or right after (issue 45): only a walk-in
 * (400 `not_walk_in`); a second photo replaces the first, whose file is deleted. The image is cleaned
 * and stored under the tenant (platform/uploads, purpose `tamu`) in the same batch as the walk-in's
 * pointer to it. Audited.
 */
export async function attachWalkInPhoto({
  ctx,
  id,
  upload,
}: {
  ctx: TenantCtx;
  id: string;
  upload: ImageUpload;
}) {
  const row = await rowById(ctx.db, visitors, id);
  if (!row) {
    throw new NotFound("Visitor request");
  }
  if (row.registeredBy === null) {
    throw new Invalid("not_walk_in", "Only a guest registered at the gate has a photo taken there.");
  }
  const prepared = await prepareTenantFile(ctx, { upload, purpose: "tamu" });
  const old = row.photoFileId ? await planTenantFileDeletion(ctx, [row.photoFileId]) : null;
  let updated: VisitorRow | undefined;
  try {
    [, [updated]] = await ctx.db.batch([
      prepared.insert,
      ctx.db
        .update(visitors)
        .set({ photoFileId: prepared.file.id, updatedAt: nowIso(ctx) })
        .where(eq(visitors.id, id))
        .returning(),
      ...(old ? [old.statement] : []),
      audit(ctx, {
        action: "visitor.walk_in_photo",
        targetType: "visitor",
        targetId: id,
        detail: { fileId: prepared.file.id, replaced: row.photoFileId, removed: prepared.removed },
      }),
    ]);
  } catch (error) {
    await prepared.discard();
    throw error;
  }
  await old?.purge();
  return presentVisitor(ctx, updated ?? { ...row, photoFileId: prepared.file.id });
}

/**
 * A walk-in's photo: the gate and staff, and the host's household (every resident account at its
 * house); anyone else, or a walk-in without a photo, 404.
 */
export async function walkInPhoto({
  ctx,
  id,
  ifNoneMatch,
}: {
  ctx: TenantCtx;
  id: string;
  ifNoneMatch: string | null;
}): Promise<Response> {
  const row = await rowById(ctx.db, visitors, id);
  if (!row || (!hasRole(ctx, ROLES.GATE) && !(await isHostOf(ctx, row)))) {
    throw new NotFound("Visitor request");
  }
  if (!row.photoFileId) {
    throw new NotFound("File", "file_not_found");
  }
  return serveAuthorisedTenantFile({ ctx, id: row.photoFileId, purpose: "tamu", input: { ifNoneMatch } });
}
