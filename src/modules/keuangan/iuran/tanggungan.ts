import { and, eq, inArray } from "drizzle-orm";
import type { PlatformCtx, TenantCtx } from "../../../core/context";
import { Invalid, NotFound } from "../../../core/errors";
import { requireUser } from "../../../core/http/access";
import { membershipsOf, ownCommunityCtx } from "../../identity/service";
import { familyCardOfPerson, familyCardsByIds } from "../../kependudukan/service";
import { duesBills } from "../tables";
import { openBillsOrder } from "./online";
import type { GraceDebtPayInput, GraceDebts } from "./schemas";

/**
 * A moved-out family's debt, for the people who moved out (issue 45). When a family moves out its
 * members' memberships end with a grace period (identity's `endMembershipsOnMoveOut`): no duty, no
 * house, so no route of the community answers them. Here, at the user level, each may still see what
 * their family owes there and pay it in ONE gateway checkout (`openBillsOrder`, the same order model as
 * a household's several bills), paid by the gateway's callback like any dues order.
 *
 * Reach: only bills settled to the family card of the registry person the membership is linked to
 * (`memberships.person_id`), in a community where the membership's grace period has not ended. Another
 * family's bill, another community's, or any bill once the grace period is over answers 404 (the answer
 * never tells an unknown bill from one that is not the caller's); the list then no longer names that
 * community. The hourly `identity.move-out-grace` job deletes the membership afterwards.
 */

interface GraceStanding {
  slug: string;
  graceUntil: string;
  tctx: TenantCtx;
  familyId: string;
}

/** The caller's communities in a move-out grace period, each with its context and the family's card. */
async function graceStandings(ctx: PlatformCtx): Promise<GraceStanding[]> {
  const actor = requireUser(ctx);
  const now = ctx.now().toISOString();
  const mine = (await membershipsOf({ ctx, id: actor.userId })).filter(
    ({ membership, tenant }) =>
      membership.graceUntil !== null &&
      membership.graceUntil > now &&
      membership.personId !== null &&
      tenant.status !== "ditutup",
  );
  const found = await Promise.all(
    mine.map(async (own) => {
      // Null while the community is suspended: its database is closed to every request.
      const tctx = await ownCommunityCtx({ ctx, own });
      const familyId =
        tctx && (await familyCardOfPerson({ ctx: tctx, personId: own.membership.personId ?? "" }));
      return tctx && familyId
        ? { slug: own.tenant.slug, graceUntil: own.membership.graceUntil ?? now, tctx, familyId }
        : null;
    }),
  );
  return found.filter((s): s is GraceStanding => s !== null);
}

const openBillsOf = (tctx: TenantCtx, familyId: string) =>
  tctx.db
    .select()
    .from(duesBills)
    .where(and(eq(duesBills.movedOutFamilyId, familyId), inArray(duesBills.status, ["belum", "sebagian"])))
    .orderBy(duesBills.period, duesBills.id);

/** `GET /api/user/tanggungan`: per community the caller moved out of, what their family still owes. */
export async function graceDebts({ ctx }: { ctx: PlatformCtx }): Promise<GraceDebts> {
  const standings = await graceStandings(ctx);
  const items = await Promise.all(
    standings.map(async ({ tctx, familyId, graceUntil }) => {
      const [bills, cards] = await Promise.all([
        openBillsOf(tctx, familyId),
        familyCardsByIds({ ctx: tctx, ids: [familyId] }),
      ]);
      const lines = bills.map((b) => ({
        id: b.id,
        period: b.period,
        typeName: b.typeName,
        amount: b.amount,
        paidAmount: b.paidAmount,
        outstanding: b.amount - b.paidAmount,
      }));
      return {
        tenant: { slug: tctx.tenant.slug, name: tctx.tenant.name, type: tctx.tenant.type },
        graceUntil,
        familyId,
        headName: cards.get(familyId)?.headName ?? null,
        owed: lines.reduce((sum, l) => sum + l.outstanding, 0),
        bills: lines,
      };
    }),
  );
  return { items };
}

/**
 * `POST /api/user/tanggungan/bayar`: the named open bills of the caller's moved-out family in one
 * gateway order. `tenant` is needed only when the caller is in more than one grace period (400
 * otherwise); a bill that is not their family's, or a community they are not (or no longer) in the
 * grace period of, is 404; a bill paid in full is 409 `bill_paid`.
 */
export async function payGraceDebts({ ctx, input }: { ctx: PlatformCtx; input: GraceDebtPayInput }) {
  const actor = requireUser(ctx);
  const standings = await graceStandings(ctx);
  if (!input.tenant && standings.length > 1) {
    throw new Invalid("invalid_input", "Name the community whose debt you are paying.", [
      { field: "tenant", message: "required when you moved out of more than one community" },
    ]);
  }
  const standing = input.tenant ? standings.find((s) => s.slug === input.tenant) : standings[0];
  if (!standing) {
    throw new NotFound("Bill");
  }
  const { tctx, familyId } = standing;
  const ids = [...new Set(input.billIds)];
  const rows = await tctx.db.select().from(duesBills).where(inArray(duesBills.id, ids));
  if (rows.length !== ids.length || rows.some((b) => b.movedOutFamilyId !== familyId)) {
    throw new NotFound("Bill");
  }
  return openBillsOrder(tctx, { bills: rows, refId: familyId, userId: actor.userId, returnPath: "/profil" });
}
