import { and, eq, isNull, or, type SQL } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { rowById } from "../../core/db/rows";
import { Conflict, Invalid, InvalidTransition, NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { nowIso } from "../../core/time";
import { tellResident } from "../../platform/notify";
import type { PassWindow } from "./pass";
import { guestPassUrl } from "./pass-link";
import type { DecideVisitorInput, HostDecisionInput } from "./schemas";
import { visitors } from "./tables";
import {
  isHostOf,
  isStay,
  loadVisitor,
  passOf,
  presentVisitor,
  type VisitorRow,
  windowFor,
} from "./visitors";

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
