import { and, desc, eq, gte, isNotNull, isNull, lte, or, type SQL } from "drizzle-orm";
import QRCode from "qrcode-svg";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, jakartaDayFilters, keysetPage, type ListQuery } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { tellResident } from "../../core/notifier";
import { addDays, DAY_MS, jakartaDay, nowIso } from "../../core/time";
import { requireCompleteProfile, userNames } from "../identity/service";
import { type GateDirection, type GatePassed, passGate } from "./gate-pass";
import { visitorQuota } from "./limits";
import { defaultWindow, normalisePassCode, passCode, signPass } from "./pass";
import { guestPassUrl } from "./pass-link";
import type { CreateVisitorInput, DecideVisitorInput, VisitorListQuery } from "./schemas";
import { requireRecordedFields } from "./settings";
import { visitors } from "./tables";

type VisitorRow = typeof visitors.$inferSelect;
const VISIT_GRACE_MS = 3_600_000;
const MAX_AHEAD_DAYS = 90;

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
  };
}

/** Fetch-or-404: a resident sees only their own requests; staff see all of the tenant's. */
async function loadVisitor(ctx: TenantCtx, id: string): Promise<VisitorRow> {
  const row = await rowById(ctx.db, visitors, id);
  if (!row || (!isStaff(ctx) && row.residentId !== requireUser(ctx).userId)) {
    throw new NotFound("Visitor request");
  }
  return row;
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
      status: "menunggu",
      updatedAt: nowIso(),
    })
    .returning();
  if (!row) {
    throw new Error("insert returned no row");
  }
  return presentVisitor(ctx, row, { withPass: true });
}

export async function listMyVisitors({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const rows = await ctx.db
    .select()
    .from(visitors)
    .where(
      and(
        eq(visitors.residentId, requireUser(ctx).userId),
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
  input: { qr?: string; code?: string; direction: GateDirection };
}): Promise<GatePassed> {
  const qr = input.qr ?? (await passByCode(ctx, input.code ?? ""));
  return passGate({ ctx, input: { qr, direction: input.direction } });
}

/**
 * Staff see every request; a guard (satpam without a staff duty) sees today's guests only, whatever
 * dates they ask for: the gate's list, not the community's visiting history.
 */
export async function listVisitors({ ctx, input }: { ctx: TenantCtx; input: VisitorListQuery }) {
  const today = jakartaDay(ctx.now());
  const [from, to] = isStaff(ctx) ? [input.from, input.to] : [today, today];
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
  const notifiedAt = nowIso();
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
  if (current.status !== "menunggu") {
    throw new Conflict("invalid_transition", `This request is already ${current.status}.`);
  }
  const now = nowIso();
  const window =
    input.status === "disetujui"
      ? input.validFrom && input.validUntil
        ? {
            validFrom: new Date(input.validFrom).toISOString(),
            validUntil: new Date(input.validUntil).toISOString(),
          }
        : defaultWindow(current.visitAt)
      : null;
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
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      throw new Conflict("invalid_transition", "This request was decided meanwhile.");
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
  const now = nowIso();
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
