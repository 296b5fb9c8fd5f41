import { and, asc, count, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx } from "../../core/context";
import { abortBatchUnless, isBatchAborted } from "../../core/db/errors";
import { afterCursor, jakartaDayFilters, keysetPage, type ListQuery } from "../../core/db/paging";
import { rowById } from "../../core/db/rows";
import { Invalid, InvalidTransition, NotFound } from "../../core/errors";
import { hasRole, ROLES, requireUser } from "../../core/http/access";
import { log } from "../../core/http/log";
import { newId } from "../../core/ids";
import { notifyFor, tellResident, tellStaff } from "../../platform/notify";
import { ownFileIdOf, requireOwnImages, tenantFileUrl } from "../../platform/uploads";
import { membershipIn, membersWithContact, userNames } from "../identity/service";
import { aspirasiQuota } from "./limits";
import type { ComplaintListQuery, CreateComplaintInput, UpdateComplaintInput } from "./schemas";
import { complaintMessages, complaints } from "./tables";

type Row = typeof complaints.$inferSelect;
type Status = Row["status"];

/** baru → diproses → selesai, or ditolak from baru or diproses; diproses may take progress notes. */
const NEXT: Record<Status, Status[]> = {
  baru: ["diproses", "ditolak"],
  diproses: ["diproses", "selesai", "ditolak"],
  selesai: [],
  ditolak: [],
};
const LABEL: Record<Status, string> = {
  baru: "diterima",
  diproses: "sedang diproses",
  selesai: "selesai ditangani",
  ditolak: "ditolak",
};

function present(
  ctx: TenantCtx,
  row: Row,
  extra: { residentName?: string | null; thread?: (typeof complaintMessages.$inferSelect)[] } = {},
) {
  return {
    id: row.id,
    residentId: row.residentId,
    ...(extra.residentName === undefined ? {} : { residentName: extra.residentName }),
    title: row.title,
    description: row.description,
    category: row.category,
    // Only the community's own file route: an older row's third-party URL is not handed on (issue 31).
    photo: row.photo && ownFileIdOf(ctx.config.APP_URL, row.photo) ? row.photo : null,
    location: row.location,
    status: row.status,
    ...(extra.thread
      ? {
          thread: extra.thread.map((m) => ({
            byStaff: m.byStaff,
            status: m.status,
            body: m.body,
            createdAt: m.createdAt,
          })),
        }
      : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Complaints are answered by the secretariat, the same roles as the staff routes. */
const isStaff = (ctx: TenantCtx) => hasRole(ctx, ROLES.STAFF);

async function load(ctx: TenantCtx, id: string): Promise<Row> {
  const row = await rowById(ctx.db, complaints, id);
  if (!row || (!isStaff(ctx) && row.residentId !== requireUser(ctx).userId)) {
    throw new NotFound("Complaint");
  }
  return row;
}

export async function createComplaint({ ctx, input }: { ctx: TenantCtx; input: CreateComplaintInput }) {
  const residentId = requireUser(ctx).userId;
  await aspirasiQuota(ctx, "pengaduan-create:member");
  // The complainant's own evidence upload, stored as its file route; a third-party image is 422.
  const [photoId] = input.photo
    ? await requireOwnImages(ctx, [input.photo], {
        field: "photo",
        purposes: ["pengaduan"],
        ownedBy: residentId,
      })
    : [];
  const membership = await membershipIn({ ctx });
  const id = newId();
  const now = ctx.now().toISOString();
  await ctx.db.batch([
    ctx.db.insert(complaints).values({
      id,
      residentId,
      unitId: membership?.unitId ?? null,
      title: input.title,
      description: input.description,
      category: input.category,
      photo: photoId ? tenantFileUrl(ctx, photoId) : null,
      location: input.location ?? null,
      status: "baru",
      updatedAt: now,
    }),
    ctx.db.insert(complaintMessages).values({
      id: newId(),
      complaintId: id,
      authorId: residentId,
      byStaff: false,
      status: "baru",
      body: null,
      createdAt: now,
    }),
  ]);
  await tellStaffOfComplaint(ctx, id, input.title);
  return getComplaint({ ctx, id });
}

/**
 * The staff who answer complaints hear of a new one by push; a burst is grouped (platform/notify/notifier.ts
 * `tellStaff`): the first at once, the rest of the next ten minutes as one "N pengaduan baru".
 */
async function tellStaffOfComplaint(ctx: TenantCtx, id: string, title: string) {
  const author = requireUser(ctx).userId;
  const staff = (await membersWithContact({ ctx })).filter(
    (m) => m.userId !== author && ROLES.STAFF.some((role) => m.roles.includes(role)),
  );
  await tellStaff(ctx, {
    kind: "pengaduan.baru",
    recipients: staff.map((m) => m.userId),
    push: { title: "Pengaduan baru", body: title, data: { screen: "pengaduan", id } },
    idempotencyKey: `${ctx.tenant.id}:pengaduan.baru:${id}`,
    summary: {
      title: "{count} pengaduan baru",
      body: "{count} pengaduan lain masuk dalam 10 menit terakhir.",
      // Opens the latest of the burst; the app shows the list of new ones from there.
      data: { screen: "pengaduan", id, status: "baru" },
    },
  });
}

export async function getComplaint({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await load(ctx, id);
  const thread = await ctx.db
    .select()
    .from(complaintMessages)
    .where(eq(complaintMessages.complaintId, id))
    .orderBy(asc(complaintMessages.id));
  const residentName = isStaff(ctx)
    ? ((await userNames({ ctx, ids: [row.residentId] })).get(row.residentId) ?? null)
    : undefined;
  return present(ctx, row, { thread, residentName });
}

export async function listMyComplaints({ ctx, input }: { ctx: TenantCtx; input: ListQuery }) {
  const rows = await ctx.db
    .select()
    .from(complaints)
    .where(
      and(
        eq(complaints.residentId, requireUser(ctx).userId),
        ...afterCursor(complaints.id, input.cursor, "desc"),
      ),
    )
    .orderBy(desc(complaints.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return { items: page.items.map((r) => present(ctx, r)), nextCursor: page.nextCursor };
}

export async function listComplaints({ ctx, input }: { ctx: TenantCtx; input: ComplaintListQuery }) {
  const filters: SQL[] = [
    ...afterCursor(complaints.id, input.cursor, "desc"),
    ...(input.status ? [eq(complaints.status, input.status)] : []),
    ...(input.category ? [eq(complaints.category, input.category)] : []),
    ...jakartaDayFilters(complaints.createdAt, input.from, input.to),
  ];
  const rows = await ctx.db
    .select()
    .from(complaints)
    .where(and(...filters))
    .orderBy(desc(complaints.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  const names = await userNames({ ctx, ids: page.items.map((r) => r.residentId) });
  return {
    items: page.items.map((r) => present(ctx, r, { residentName: names.get(r.residentId) ?? null })),
    nextCursor: page.nextCursor,
  };
}

export async function updateComplaint({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: UpdateComplaintInput;
}) {
  const current = await load(ctx, id);
  if (!NEXT[current.status].includes(input.status)) {
    throw new InvalidTransition(
      `A complaint that is ${current.status} cannot become ${input.status}.`,
      NEXT[current.status],
    );
  }
  if ((input.status === "ditolak" || input.status === current.status) && !input.response) {
    throw new Invalid("response_required", "Tell the resident why, or what progress was made.", [
      { field: "response", message: "required" },
    ]);
  }
  const now = ctx.now().toISOString();
  const messageId = newId();
  // Compare-and-set on the revision. The guard right after the update aborts the batch if it did not
  // apply (`changes()` is that update's row count), so a lost race leaves no thread line and no audit.
  try {
    await ctx.db.batch([
      ctx.db
        .update(complaints)
        .set({ status: input.status, revision: current.revision + 1, updatedAt: now })
        .where(and(eq(complaints.id, id), eq(complaints.revision, current.revision))),
      abortBatchUnless(ctx.db, complaints, id, sql`changes() = 1`),
      ctx.db.insert(complaintMessages).values({
        id: messageId,
        complaintId: id,
        authorId: requireUser(ctx).userId,
        byStaff: true,
        status: input.status,
        body: input.response ?? null,
        createdAt: now,
      }),
      audit(ctx, {
        action: `pengaduan.${input.status}`,
        targetType: "complaint",
        targetId: id,
        detail: { from: current.status },
      }),
    ]);
  } catch (error) {
    if (isBatchAborted(error)) {
      const fresh = await load(ctx, id);
      throw new InvalidTransition(
        "This complaint changed meanwhile; reload it and try again.",
        NEXT[fresh.status],
      );
    }
    throw error;
  }
  await pushToComplainant(ctx, current, input.status, messageId);
  await tellResident(ctx, current.residentId, {
    subject: `Pengaduan "${current.title}" ${LABEL[input.status]}`,
    text: `Pengaduan Anda "${current.title}" ${LABEL[input.status]}.${input.response ? `\nTanggapan pengurus: ${input.response}` : ""}`,
    idempotencyKey: `pengaduan:${ctx.tenant.slug}:${id}:${messageId}`,
  });
  return getComplaint({ ctx, id });
}

/**
 * A staff reply reaches the complainant's phone too: a push opening the complaint. It goes through the
 * notification service's fan-out, so the resident's preferences and quiet hours apply; the reply is
 * already stored, so a service that is down is logged, not thrown.
 */
async function pushToComplainant(ctx: TenantCtx, row: Row, status: Status, messageId: string) {
  try {
    await notifyFor(ctx.env).fanout({
      reference: `${ctx.tenant.id}:pengaduan:${row.id}`,
      tenant: ctx.tenant.slug,
      channel: "push",
      recipients: [{ userId: row.residentId }],
      push: {
        title: `Pengaduan ${LABEL[status]}`,
        body: row.title,
        data: { screen: "pengaduan", id: row.id },
      },
      idempotencyKey: `${ctx.tenant.id}:pengaduan:${row.id}:${messageId}:push`,
    });
  } catch (error) {
    log("warn", "pengaduan.push_failed", { requestId: ctx.requestId, error: String(error) });
  }
}

/** Dashboard indicator: new complaints. */
export function countNewComplaints(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(complaints, eq(complaints.status, "baru"));
}

/** Complaints still open (received or being handled), as one query: the RW summary's figure per RT. */
export function openComplaintsQuery(ctx: TenantCtx) {
  return ctx.db
    .select({ n: count() })
    .from(complaints)
    .where(inArray(complaints.status, ["baru", "diproses"]));
}

/** Complaints still open (received or being handled). */
export async function countOpenComplaints(ctx: TenantCtx): Promise<number> {
  return (await openComplaintsQuery(ctx).get())?.n ?? 0;
}
