import { and, eq, gte, lte } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { rowById } from "../../core/db/rows";
import { Invalid, NotFound } from "../../core/errors";
import { DAY_MS } from "../../core/time";
import { type GateDirection, type GatePassed, gateById, gateRefusalError, passGate } from "./gate-pass";
import { normalisePassCode, passCode } from "./pass";
import { visitors } from "./tables";
import { passOf } from "./visitors";

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
