import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { rowById, rowByIdOrNotFound } from "../../core/db/rows";
import { Conflict, Invalid, InvalidTransition, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { newId } from "../../core/ids";
import { jakartaDay, nowIso } from "../../core/time";
import { requireTenantFile, tenantFileUrl } from "../../platform/uploads";
import { userNames } from "../identity/service";
import { postCash, todayJakarta } from "./kas";
import { monthWindow } from "./periods";
import type { CampaignInput, CampaignListQuery, CampaignUpdate, DonationInput } from "./schemas";
import { loadFinanceSettings } from "./settings";
import { campaigns, donations } from "./tables";

type CampaignRow = typeof campaigns.$inferSelect;
type DonationRow = typeof donations.$inferSelect;

/** A pledged donation is decided once: `dijanjikan → dikonfirmasi | ditolak`, then final. */
const DONATION_NEXT: Record<DonationRow["status"], DonationRow["status"][]> = {
  dijanjikan: ["dikonfirmasi", "ditolak"],
  dikonfirmasi: [],
  ditolak: [],
};

const isFinance = (ctx: TenantCtx) => hasRole(ctx, ROLES.FINANCE);

async function progressOf(ctx: TenantCtx, ids: readonly string[]) {
  const found = new Map<string, { confirmed: number; donors: number }>();
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await ctx.db
      .select({
        campaignId: donations.campaignId,
        confirmed: sql<number>`coalesce(sum(${donations.amount}), 0)`,
        donors: sql<number>`count(distinct coalesce(${donations.donorId}, ${donations.id}))`,
      })
      .from(donations)
      .where(and(inArray(donations.campaignId, ids.slice(i, i + 90)), eq(donations.status, "dikonfirmasi")))
      .groupBy(donations.campaignId);
    for (const row of rows) {
      found.set(row.campaignId, { confirmed: Number(row.confirmed), donors: Number(row.donors) });
    }
  }
  return found;
}

function present(
  ctx: TenantCtx,
  row: CampaignRow,
  progress: { confirmed: number; donors: number } | undefined,
) {
  const confirmed = progress?.confirmed ?? 0;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    target: row.target,
    deadline: row.deadline,
    status: row.status,
    coverUrl: row.coverFileId ? tenantFileUrl(ctx, row.coverFileId) : null,
    progress: {
      confirmed,
      percent: row.target > 0 ? Math.round((confirmed / row.target) * 1000) / 10 : 0,
      donors: progress?.donors ?? 0,
    },
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

async function load(ctx: TenantCtx, id: string): Promise<CampaignRow> {
  return rowByIdOrNotFound(ctx.db, campaigns, id, "Campaign");
}

export async function listCampaigns({ ctx, input }: { ctx: TenantCtx; input: CampaignListQuery }) {
  const filters: SQL[] = [
    ...afterCursor(campaigns.id, input.cursor, "desc"),
    ...(input.status ? [eq(campaigns.status, input.status)] : []),
  ];
  const rows = await ctx.db
    .select()
    .from(campaigns)
    .where(and(...filters))
    .orderBy(desc(campaigns.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  const progress = await progressOf(
    ctx,
    page.items.map((r) => r.id),
  );
  return {
    items: page.items.map((row) => present(ctx, row, progress.get(row.id))),
    nextCursor: page.nextCursor,
  };
}

/** Active campaigns with their progress, for other modules (the assistant, the watch summary). */
export async function activeCampaigns({ ctx }: { ctx: TenantCtx }) {
  const rows = await ctx.db
    .select()
    .from(campaigns)
    .where(eq(campaigns.status, "aktif"))
    .orderBy(desc(campaigns.id))
    .limit(50);
  const progress = await progressOf(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((row) => present(ctx, row, progress.get(row.id)));
}

/**
 * Donations as the caller may see them: finance sees every donor; others see pledges only once
 * confirmed, and never the name of an anonymous donor (a resident still sees their own).
 */
function presentDonation(ctx: TenantCtx, row: DonationRow, names: Map<string, string>) {
  const own = ctx.actor.kind === "user" && row.donorId === ctx.actor.userId;
  const name = row.donorName ?? (row.donorId ? (names.get(row.donorId) ?? null) : null);
  return {
    id: row.id,
    campaignId: row.campaignId,
    donorName: row.anonymous && !isFinance(ctx) && !own ? null : name,
    anonymous: row.anonymous,
    amount: row.amount,
    note: row.note,
    status: row.status,
    cashEntryId: isFinance(ctx) ? row.cashEntryId : null,
    createdAt: row.createdAt,
  };
}

export async function getCampaign({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await load(ctx, id);
  const viewer = ctx.actor.kind === "user" ? ctx.actor.userId : "";
  const rows = await ctx.db
    .select()
    .from(donations)
    .where(eq(donations.campaignId, id))
    .orderBy(desc(donations.id))
    .limit(200);
  const visible = isFinance(ctx)
    ? rows
    : rows.filter((d) => d.status === "dikonfirmasi" || d.donorId === viewer);
  const names = await userNames({ ctx, ids: visible.flatMap((d) => (d.donorId ? [d.donorId] : [])) });
  const progress = await progressOf(ctx, [id]);
  return {
    ...present(ctx, row, progress.get(id)),
    donations: visible.map((d) => presentDonation(ctx, d, names)),
  };
}

export async function createCampaign({ ctx, input }: { ctx: TenantCtx; input: CampaignInput }) {
  const by = requireUser(ctx).userId;
  if (input.deadline < todayJakarta(ctx)) {
    throw new Invalid("invalid_date", "The deadline is in the past.", [
      { field: "deadline", message: "in the past" },
    ]);
  }
  if (input.coverFileId) {
    await requireTenantFile(ctx, input.coverFileId, { purposes: ["sampul"], field: "coverFileId" });
  }
  const id = newId();
  await ctx.db.batch([
    ctx.db.insert(campaigns).values({ id, ...input, status: "aktif", createdBy: by, updatedAt: nowIso(ctx) }),
    audit(ctx, {
      action: "kampanye.create",
      targetType: "campaign",
      targetId: id,
      detail: { target: input.target },
    }),
  ]);
  return getCampaign({ ctx, id });
}

/** Edits, and the state moves: `aktif` → `selesai` or `dibatalkan`; a closed campaign stays closed. */
export async function updateCampaign({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: CampaignUpdate;
}) {
  const current = await load(ctx, id);
  if (current.status !== "aktif") {
    throw new Conflict("campaign_closed", `This campaign is ${current.status}; it can no longer change.`);
  }
  if (input.coverFileId) {
    await requireTenantFile(ctx, input.coverFileId, { purposes: ["sampul"], field: "coverFileId" });
  }
  await ctx.db.batch([
    ctx.db
      .update(campaigns)
      .set({ ...input, updatedAt: nowIso(ctx) })
      .where(eq(campaigns.id, id)),
    audit(ctx, { action: "kampanye.update", targetType: "campaign", targetId: id, detail: { ...input } }),
  ]);
  return getCampaign({ ctx, id });
}

const cashPosting = (
  ctx: TenantCtx,
  campaign: CampaignRow,
  donation: Pick<DonationRow, "id" | "amount">,
) => ({
  kind: "masuk" as const,
  category: "Donasi",
  amount: donation.amount,
  date: todayJakarta(ctx),
  note: `Donasi: ${campaign.title}`,
  source: "donasi" as const,
  sourceId: donation.id,
});

/** Honorifics that do not tell two donors apart ("Pak Budi" is Budi). */
const HONORIFICS = new Set([
  "pak",
  "bapak",
  "bpk",
  "bu",
  "ibu",
  "sdr",
  "sdri",
  "saudara",
  "saudari",
  "mas",
  "mbak",
  "h",
  "hj",
]);

/** A name as words, lower case, without punctuation or honorifics. */
function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}\s]/gu, " ")
    .split(/\s+/)
    .filter((w) => w && !HONORIFICS.has(w));
}

/**
 * Whether `donorName` names the officer recording it: the same words, or one name's words a run in the
 * other's ("Budi" in "Budi Santoso"). Generous on purpose: a false match only means a second officer
 * looks at the donation.
 */
export function namesOfficer(donorName: string, officerName: string): boolean {
  const donor = nameWords(donorName).join(" ");
  const officer = nameWords(officerName).join(" ");
  if (!donor || !officer) {
    return false;
  }
  const [short, long] = donor.length <= officer.length ? [donor, officer] : [officer, donor];
  return ` ${long} `.includes(` ${short} `);
}

/**
 * What `by` booked alone as cash donations in the Jakarta month of `now`: the cash in hand they recorded
 * and confirmed themselves. A subquery, so the batch's guard can ask it again after its own insert.
 */
function selfConfirmedCash(by: string, now: Date) {
  const { from, to } = monthWindow(now);
  return sql<number>`(SELECT coalesce(sum(d.amount), 0) FROM ${donations} AS d
    WHERE d.recorded_by = ${by} AND d.decided_by = ${by} AND d.donor_id IS NULL
      AND d.status = 'dikonfirmasi' AND d.decided_at >= ${from} AND d.decided_at < ${to})`;
}

/**
 * A resident pledges (`dijanjikan`, confirmed later by the treasurer). A finance officer's own donation
 * (no `donorName`) is a pledge like a resident's, and another officer confirms it (issue 31 N5). Cash in
 * hand a finance officer records from a named donor (`donorName`) is confirmed and posted to the cash
 * book at once only while no second pair of eyes is needed (issue 44 P10, the expenses' rule): the name
 * is not the officer's own, and the officer's own confirmed cash of the Jakarta month, this one included,
 * stays under the finance settings' approval threshold (the same amount that makes expenses wait).
 * Otherwise it waits as `dijanjikan` until another officer confirms it with the same decision as a
 * pledge; the officer who recorded it never decides it (409 `self_confirmation`).
 */
export async function donate({ ctx, id, input }: { ctx: TenantCtx; id: string; input: DonationInput }) {
  const by = requireUser(ctx).userId;
  const campaign = await load(ctx, id);
  if (campaign.status !== "aktif" || campaign.deadline < jakartaDay(ctx.now())) {
    throw new Conflict("campaign_closed", "This campaign no longer takes donations.");
  }
  const cash = isFinance(ctx) && input.donorName !== undefined;
  const donationId = newId();
  const now = ctx.now();
  let auto = false;
  let threshold = 0;
  if (cash) {
    const officer = (await userNames({ ctx, ids: [by] })).get(by) ?? "";
    threshold = (await loadFinanceSettings(ctx)).expenseApprovalThreshold;
    const [booked] = await ctx.db.select({ total: selfConfirmedCash(by, now) }).from(sql`(SELECT 1)`);
    auto =
      !namesOfficer(input.donorName ?? "", officer) && Number(booked?.total ?? 0) + input.amount < threshold;
  }
  try {
    await insertDonation(ctx, { campaign, donationId, by, input, cash, auto, threshold, now });
  } catch (error) {
    if (!(auto && isBatchAborted(error))) {
      throw error;
    }
    // Another cash donation the same officer booked alone landed meanwhile: this one waits instead.
    await insertDonation(ctx, { campaign, donationId, by, input, cash, auto: false, threshold, now });
  }
  const row = await rowById(ctx.db, donations, donationId);
  if (!row) {
    throw new Error("donation vanished after insert");
  }
  return presentDonation(ctx, row, await userNames({ ctx, ids: [by] }));
}

async function insertDonation(
  ctx: TenantCtx,
  args: {
    campaign: CampaignRow;
    donationId: string;
    by: string;
    input: DonationInput;
    cash: boolean;
    auto: boolean;
    threshold: number;
    now: Date;
  },
) {
  const { campaign, donationId, by, input, cash, auto, threshold, now } = args;
  const at = now.toISOString();
  const entry = auto
    ? postCash(ctx, cashPosting(ctx, campaign, { id: donationId, amount: input.amount }))
    : null;
  await ctx.db.batch([
    ctx.db.insert(donations).values({
      id: donationId,
      campaignId: campaign.id,
      donorId: cash ? null : by,
      donorName: cash ? (input.donorName ?? null) : null,
      anonymous: input.anonymous,
      amount: input.amount,
      note: input.note ?? null,
      status: auto ? "dikonfirmasi" : "dijanjikan",
      recordedBy: by,
      decidedBy: auto ? by : null,
      decidedAt: auto ? at : null,
      cashEntryId: entry?.id ?? null,
      updatedAt: at,
    }),
    ...(auto
      ? [abortBatchUnless(ctx.db, donations, donationId, sql`${selfConfirmedCash(by, now)} < ${threshold}`)]
      : []),
    ...(entry?.writes ?? []),
    ...(cash
      ? [
          audit(ctx, {
            action: auto ? "donasi.cash" : "donasi.cash_pending",
            targetType: "donation",
            targetId: donationId,
            detail: { campaignId: campaign.id, amount: input.amount, cashEntryId: entry?.id ?? null },
          }),
        ]
      : []),
  ]);
}

/**
 * The treasurer confirms (posting it) or rejects a pledge, or cash in hand that waits for a second
 * officer, once; never their own gift nor cash they recorded (409 `self_confirmation`): another finance
 * officer decides it.
 */
export async function decideDonation({
  ctx,
  id,
  donationId,
  status,
}: {
  ctx: TenantCtx;
  id: string;
  donationId: string;
  status: "dikonfirmasi" | "ditolak";
}) {
  const by = requireUser(ctx).userId;
  const campaign = await load(ctx, id);
  const donation = await ctx.db
    .select()
    .from(donations)
    .where(and(eq(donations.id, donationId), eq(donations.campaignId, id)))
    .get();
  if (!donation) {
    throw new NotFound("Donation");
  }
  if (donation.donorId === by || donation.recordedBy === by) {
    throw new Conflict("self_confirmation", "Another finance officer decides your own donation.");
  }
  if (donation.status !== "dijanjikan") {
    throw new InvalidTransition(
      `This donation is already ${donation.status}.`,
      DONATION_NEXT[donation.status],
    );
  }
  const now = nowIso(ctx);
  const entry = status === "dikonfirmasi" ? postCash(ctx, cashPosting(ctx, campaign, donation)) : null;
  try {
    await ctx.db.batch([
      ctx.db
        .update(donations)
        .set({ status, decidedBy: by, decidedAt: now, cashEntryId: entry?.id ?? null, updatedAt: now })
        .where(and(eq(donations.id, donationId), eq(donations.status, "dijanjikan"))),
      abortBatchUnless(
        ctx.db,
        donations,
        donationId,
        and(eq(donations.decidedAt, now), eq(donations.decidedBy, by)) as SQL,
      ),
      ...(entry?.writes ?? []),
      audit(ctx, {
        action: status === "dikonfirmasi" ? "donasi.confirm" : "donasi.reject",
        targetType: "donation",
        targetId: donationId,
        detail: { campaignId: id, amount: donation.amount, cashEntryId: entry?.id ?? null },
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      const fresh = await rowById(ctx.db, donations, donationId);
      throw new InvalidTransition(
        "This donation was decided meanwhile.",
        DONATION_NEXT[fresh?.status ?? "ditolak"],
      );
    }
    throw error;
  }
  const row = await rowById(ctx.db, donations, donationId);
  if (!row) {
    throw new NotFound("Donation");
  }
  return presentDonation(ctx, row, await userNames({ ctx, ids: row.donorId ? [row.donorId] : [] }));
}
