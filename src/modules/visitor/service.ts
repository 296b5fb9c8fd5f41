import { and, desc, eq, gte, isNotNull, isNull, lte, or, type SQL } from "drizzle-orm";
import QRCode from "qrcode-svg";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, jakartaDayFilters, keysetPage, type ListQuery } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, Invalid, InvalidTransition, NotFound, Unprocessable } from "../../core/errors";
import type { ImageUpload } from "../../core/files";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { tellResident } from "../../core/notifier";
import { addDays, DAY_MS, jakartaDay, jakartaDayStart, nowIso } from "../../core/time";
import { planTenantFileDeletion, prepareTenantFile, serveAuthorisedTenantFile } from "../../platform/uploads";
import { membershipIn, requireCompleteProfile, residentsOf, userNames } from "../identity/service";
import { unitByAddress } from "../kependudukan/service";
import { type GateDirection, type GatePassed, gateById, gateRefusalError, passGate } from "./gate-pass";
import { visitorQuota } from "./limits";
import { defaultWindow, normalisePassCode, type PassWindow, passCode, signPass } from "./pass";
import { guestPassUrl } from "./pass-link";
import type {
  CreateVisitorInput,
  DecideVisitorInput,
  HostDecisionInput,
  VisitorListQuery,
  WalkInInput,
} from "./schemas";
import { requireRecordedFields } from "./settings";
import { visitors } from "./tables";

type VisitorRow = typeof visitors.$inferSelect;
const VISIT_GRACE_MS = 3_600_000;
const MAX_AHEAD_DAYS = 90;
const MAX_STAY_DAYS = 30;

/** Who reviews guests and works the gate: the secretariat, as in the route table. */
const isStaff = (ctx: TenantCtx) => hasRole(ctx, ROLES.STAFF);

async function passOf(ctx: TenantCtx, row: VisitorRow): Promise<string | null> {
  if (row.status !== "disetujui" || !row.passValidFrom || !row.passValidUntil || !row.decidedAt) {
    return null;
  }
  return signPass(ctx.config, {
    tenant: ctx.tenant.slug,
    visitorId: row.id,
    issuedAt: row.decidedAt,
    validFrom: row.passValidFrom,
    validUntil: row.passValidUntil,
  });
}

async function passWithCode(ctx: TenantCtx, row: VisitorRow) {
  const pass = await passOf(ctx, row);
  return { pass, passCode: pass ? await passCode(ctx.config, pass) : null };
}

export async function presentVisitor(
  ctx: TenantCtx,
  row: VisitorRow,
  opts: { withPass?: boolean; residentName?: string | null } = {},
) {
  return {
    id: row.id,
    residentId: row.residentId,
    ...(opts.residentName === undefined ? {} : { residentName: opts.residentName }),
    unitId: row.unitId,
    guestName: row.guestName,
    purpose: row.purpose,
    visitAt: row.visitAt,
    vehiclePlate: row.vehiclePlate,
    identity: row.identity,
    status: row.status,
    note: row.note,
    decidedAt: row.decidedAt,
    passValidFrom: row.passValidFrom,
    passValidUntil: row.passValidUntil,
    ...(opts.withPass ? await passWithCode(ctx, row) : {}),
    notificationPending: row.status === "disetujui" && row.notifiedAt === null,
    checkedInAt: row.checkedInAt,
    checkedOutAt: row.checkedOutAt,
    inside: row.checkedInAt !== null && row.checkedOutAt === null,
    createdAt: row.createdAt,
    walkIn: row.registeredBy !== null,
    category: row.category,
    stayUntil: row.stayUntil,
    approvalMethod: row.approvalMethod,
    multiEntry: row.multiEntry,
    regularId: row.regularId,
    photoUrl: row.photoFileId ? walkInPhotoUrl(ctx, row.id) : null,
  };
}

/** The walk-in's photo through its own route: the host's household reads it there, not in `/api/files`. */
const walkInPhotoUrl = (ctx: TenantCtx, id: string) =>
  `${ctx.config.APP_URL.replace(/\/$/, "")}/api/visitor/${id}/foto`;

/** The caller's house in this community, or null (a guard, or a resident without one yet). */
async function callerUnit(ctx: TenantCtx): Promise<string | null> {
  return (await membershipIn({ ctx }))?.unitId ?? null;
}

/** A walk-in is the host household's to see and answer: every resident account at its unit. */
async function isHostOf(ctx: TenantCtx, row: VisitorRow): Promise<boolean> {
  return row.registeredBy !== null && row.unitId !== null && row.unitId === (await callerUnit(ctx));
}

/**
 * Fetch-or-404: a resident sees only their own requests and the walk-ins to their house; staff see all
 * of the tenant's.
 */
async function loadVisitor(ctx: TenantCtx, id: string): Promise<VisitorRow> {
  const row = await rowById(ctx.db, visitors, id);
  if (!row || (!isStaff(ctx) && row.residentId !== requireUser(ctx).userId && !(await isHostOf(ctx, row)))) {
    throw new NotFound("Visitor request");
  }
  return row;
}

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

/** The pass window a decision gives when staff name none: the visit's day, or the whole stay. */
function windowFor(row: VisitorRow): PassWindow {
  const day = defaultWindow(row.visitAt);
  return row.stayUntil
    ? { ...day, validUntil: new Date(jakartaDayStart(row.stayUntil).getTime() + DAY_MS - 1000).toISOString() }
    : day;
}

/** A pass longer than a day is a stay: its guest goes out and in again while it is valid. */
const isStay = (window: PassWindow) =>
  new Date(window.validUntil).getTime() - new Date(window.validFrom).getTime() > DAY_MS;

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

/** The caller's own registrations, and the walk-ins the guard registered for their house. */
export async function listMyVisitors({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const unitId = await callerUnit(ctx);
  const own = eq(visitors.residentId, requireUser(ctx).userId);
  const rows = await ctx.db
    .select()
    .from(visitors)
    .where(
      and(
        unitId ? or(own, and(eq(visitors.unitId, unitId), isNotNull(visitors.registeredBy))) : own,
        ...afterCursor(visitors.id, input.cursor, "desc"),
      ),
    )
    .orderBy(desc(visitors.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return {
    items: await Promise.all(page.items.map((row) => presentVisitor(ctx, row, { withPass: true }))),
    nextCursor: page.nextCursor,
  };
}

/**
 * The pass a typed code stands for: among this community's approved passes whose window is within a day
 * of now (a code is typed at the gate, on the visit's day), the one whose code it is. A mistyped code is
 * `invalid_pass`, as a garbled QR is; the pass itself then meets every check a scanned one does.
 */
async function passByCode(ctx: TenantCtx, typed: string): Promise<string> {
  const code = normalisePassCode(typed);
  const now = ctx.now().getTime();
  const rows = await ctx.db
    .select()
    .from(visitors)
    .where(
      and(
        eq(visitors.status, "disetujui"),
        gte(visitors.passValidUntil, new Date(now - DAY_MS).toISOString()),
        lte(visitors.passValidFrom, new Date(now + DAY_MS).toISOString()),
      ),
    );
  for (const row of rows) {
    const pass = await passOf(ctx, row);
    if (pass && (await passCode(ctx.config, pass)) === code) {
      return pass;
    }
  }
  throw new Invalid("invalid_pass", "No pass of this community has that code.");
}

/** The staff's and the guard's gate: a pass scanned (its QR) or typed (its code), checked in or out. */
export async function checkGate({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { qr?: string; code?: string; visitorId?: string; direction: GateDirection };
}): Promise<GatePassed> {
  if (input.visitorId !== undefined) {
    return gateByRegistration(ctx, input.visitorId, input.direction);
  }
  const qr = input.qr ?? (await passByCode(ctx, input.code ?? ""));
  return passGate({ ctx, input: { qr, direction: input.direction } });
}

/**
 * The gate by the registration itself, from the guard's list (issue 45): a walk-in has no pass in the
 * guest's hand, so it enters by its id once approved, through its own pass (every check a scanned one
 * meets); anyone inside leaves by their id from the list of who is inside now.
 */
async function gateByRegistration(ctx: TenantCtx, id: string, direction: GateDirection) {
  const row = await rowById(ctx.db, visitors, id);
  if (!row) {
    throw new NotFound("Visitor request");
  }
  if (direction === "in") {
    if (row.registeredBy === null) {
      throw new Invalid("not_walk_in", "A registered guest enters with their pass (its QR or code).");
    }
    const pass = await passOf(ctx, row);
    if (!pass) {
      throw gateRefusalError("not_approved");
    }
    return passGate({ ctx, input: { qr: pass, direction } });
  }
  const outcome = await gateById({ ctx, visitorId: id, direction });
  if ("refused" in outcome) {
    throw gateRefusalError(outcome.refused);
  }
  return outcome.passed;
}

/**
 * Staff see every request; a guard (satpam without a staff duty) sees today's guests only, whatever
 * dates they ask for: the gate's list, not the community's visiting history.
 */
export async function listVisitors({ ctx, input }: { ctx: TenantCtx; input: VisitorListQuery }) {
  const today = jakartaDay(ctx.now());
  // Who is inside now is the gate's business whatever day they came (a stay of several days).
  const [from, to] = isStaff(ctx) || input.inside === "true" ? [input.from, input.to] : [today, today];
  const filters: SQL[] = [
    ...afterCursor(visitors.id, input.cursor, "desc"),
    ...(input.status ? [eq(visitors.status, input.status)] : []),
    ...jakartaDayFilters(visitors.visitAt, from, to),
    ...(input.inside === "true" ? [isNotNull(visitors.checkedInAt), isNull(visitors.checkedOutAt)] : []),
  ];
  const rows = await ctx.db
    .select()
    .from(visitors)
    .where(and(...filters))
    .orderBy(desc(visitors.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  const names = await userNames({ ctx, ids: page.items.map((r) => r.residentId) });
  return {
    items: await Promise.all(
      page.items.map((row) => presentVisitor(ctx, row, { residentName: names.get(row.residentId) ?? null })),
    ),
    nextCursor: page.nextCursor,
  };
}

export async function getVisitor({ ctx, id }: { ctx: TenantCtx; id: string }) {
  return presentVisitor(ctx, await loadVisitor(ctx, id), { withPass: true });
}

const DATE_FORMAT = new Intl.DateTimeFormat("id-ID", {
  dateStyle: "full",
  timeStyle: "short",
  timeZone: "Asia/Jakarta",
});

/** Tells the resident; a notification service that is down leaves `notifiedAt` null, not a lost approval. */
async function notifyApproval(ctx: TenantCtx, row: VisitorRow): Promise<VisitorRow> {
  const visitDate = `${DATE_FORMAT.format(new Date(row.visitAt))} WIB`;
  const pass = await passOf(ctx, row);
  if (!pass) {
    return row;
  }
  // The pass link opens the pass page (pass-link.ts): the signed pass, not the guessable request id.
  const visitUrl = guestPassUrl(ctx.config, pass);
  const told = await tellResident(ctx, row.residentId, {
    template: "VISITOR_APPROVED",
    data: { visitorName: row.guestName, visitDate, visitUrl },
    text: `kunjungan ${row.guestName} pada ${visitDate} telah disetujui pengurus ${ctx.tenant.name}. Kode QR: ${visitUrl}`,
    idempotencyKey: `visitor-approved:${ctx.tenant.slug}:${row.id}`,
  });
  if (!told) {
    return row;
  }
  const notifiedAt = nowIso(ctx);
  await ctx.db.update(visitors).set({ notifiedAt }).where(eq(visitors.id, row.id));
  return { ...row, notifiedAt };
}

export async function decideVisitor({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: DecideVisitorInput;
}) {
  const current = await loadVisitor(ctx, id);
  const window =
    input.validFrom && input.validUntil
      ? {
          validFrom: new Date(input.validFrom).toISOString(),
          validUntil: new Date(input.validUntil).toISOString(),
        }
      : undefined;
  return decide(ctx, current, { status: input.status, note: input.note, window, method: "pengurus" });
}

/**
 * The host's household answers a walk-in to their house from their phone (issue 45). Only a walk-in
 * (409 `not_walk_in` for a registration of their own, which staff decide) and only the host's (404 for
 * anyone else's, as every other resident's request). Audited.
 */
export async function hostDecision({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: HostDecisionInput;
}) {
  const row = await rowById(ctx.db, visitors, id);
  if (!row || !(await isHostOf(ctx, row))) {
    if (row && row.residentId === requireUser(ctx).userId) {
      throw new Conflict("not_walk_in", "Staff decide your own registrations.");
    }
    throw new NotFound("Visitor request");
  }
  return decide(ctx, row, { status: input.status, note: input.note, method: "tuan_rumah" });
}

/**
 * The guard approves a walk-in after calling the host (issue 45), recorded as such (`telepon`, the guard
 * as the one who decided): only a walk-in (400 `not_walk_in`). Audited.
 */
export async function phoneApproval({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: { note?: string };
}) {
  const row = await rowById(ctx.db, visitors, id);
  if (!row) {
    throw new NotFound("Visitor request");
  }
  if (row.registeredBy === null) {
    throw new Invalid("not_walk_in", "Only a guest registered at the gate is approved by phone.");
  }
  return decide(ctx, row, { status: "disetujui", note: input.note, method: "telepon" });
}

/** A visitor request is decided once: `menunggu → disetujui | ditolak`, then final. */
const DECISION_NEXT: Record<VisitorRow["status"], VisitorRow["status"][]> = {
  menunggu: ["disetujui", "ditolak"],
  disetujui: [],
  ditolak: [],
};

async function decide(
  ctx: TenantCtx,
  current: VisitorRow,
  input: {
    status: "disetujui" | "ditolak";
    note?: string;
    window?: PassWindow;
    method: NonNullable<VisitorRow["approvalMethod"]>;
  },
) {
  const id = current.id;
  if (current.status !== "menunggu") {
    throw new InvalidTransition(`This request is already ${current.status}.`, DECISION_NEXT[current.status]);
  }
  const now = nowIso(ctx);
  const window = input.status === "disetujui" ? (input.window ?? windowFor(current)) : null;
  if (window && window.validUntil <= window.validFrom) {
    throw new Invalid("invalid_window", "validUntil must be after validFrom.", [
      { field: "validUntil", message: "before validFrom" },
    ]);
  }
  const decidedBy = requireUser(ctx).userId;
  // Only from `menunggu`: a concurrent decision loses here rather than overwriting the first one. The
  // guard aborts the batch (and so the audit record) when this UPDATE was not the one that decided.
  let row: VisitorRow | undefined;
  try {
    [[row]] = await ctx.db.batch([
      ctx.db
        .update(visitors)
        .set({
          status: input.status,
          note: input.note ?? null,
          decidedBy,
          decidedAt: now,
          passValidFrom: window?.validFrom ?? null,
          passValidUntil: window?.validUntil ?? null,
          approvalMethod: input.method,
          multiEntry: window ? isStay(window) : false,
          updatedAt: now,
        })
        .where(and(eq(visitors.id, id), eq(visitors.status, "menunggu")))
        .returning(),
      abortBatchUnless(
        ctx.db,
        visitors,
        id,
        and(eq(visitors.decidedAt, now), eq(visitors.decidedBy, decidedBy)) as SQL,
      ),
      audit(ctx, {
        action: input.status === "disetujui" ? "visitor.approve" : "visitor.reject",
        targetType: "visitor",
        targetId: id,
        detail: { method: input.method },
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      const fresh = await rowById(ctx.db, visitors, id);
      throw new InvalidTransition(
        "This request was decided meanwhile.",
        DECISION_NEXT[fresh?.status ?? "ditolak"],
      );
    }
    throw error;
  }
  if (!row) {
    throw new NotFound("Visitor request");
  }
  const final = input.status === "disetujui" ? await notifyApproval(ctx, row) : row;
  return presentVisitor(ctx, final, { withPass: true });
}

export async function visitorQrSvg({ ctx, id }: { ctx: TenantCtx; id: string }): Promise<string> {
  const row = await loadVisitor(ctx, id);
  const pass = await passOf(ctx, row);
  if (!pass) {
    throw new Conflict("not_approved", "Only an approved request has a pass.");
  }
  return new QRCode({ content: pass, ecl: "M", join: true, container: "svg-viewbox", padding: 2 }).svg();
}

/**
 * A member leaves the community (members module): their requests still waiting and their approved
 * passes not yet used become `ditolak`, so no guest is let in on the word of someone who no longer
 * lives there. A guest already inside can still check out. Idempotent: a second call finds nothing
 * and writes nothing. Returns how many were revoked.
 */
export async function revokePassesOf({ ctx, userId }: { ctx: TenantCtx; userId: string }): Promise<number> {
  const open = and(
    eq(visitors.residentId, userId),
    or(eq(visitors.status, "menunggu"), and(eq(visitors.status, "disetujui"), isNull(visitors.checkedInAt))),
  );
  const pending = await ctx.db.select({ id: visitors.id }).from(visitors).where(open);
  if (pending.length === 0) {
    return 0;
  }
  const now = nowIso(ctx);
  const [revoked] = await ctx.db.batch([
    ctx.db
      .update(visitors)
      .set({
        status: "ditolak",
        note: "Pendaftar tidak lagi menjadi anggota komunitas.",
        decidedBy: requireUser(ctx).userId,
        decidedAt: now,
        passValidFrom: null,
        passValidUntil: null,
        updatedAt: now,
      })
      .where(open)
      .returning({ id: visitors.id }),
    audit(ctx, {
      action: "visitor.revoke_member",
      targetType: "user",
      targetId: userId,
      detail: { visitorIds: pending.map((p) => p.id) },
    }),
  ]);
  return revoked.length;
}

/** Dashboard indicator: guests awaiting approval. */
export function countAwaitingGuests(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(visitors, eq(visitors.status, "menunggu"));
}

export {
  type GateDirection,
  type GatePassed,
  type GateRefusal,
  type GateScan,
  gatePass,
  gateRefusalError,
  passGate,
  type ScanLog,
  type ScanRecord,
} from "./gate-pass";
