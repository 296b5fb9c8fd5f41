import { and, asc, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { jakartaDayFilters } from "../../core/db/paging";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { membershipIn, userNames } from "../identity/service";
import type { ComplaintListQuery, CreateComplaintInput, UpdateComplaintInput } from "./schemas";
import { audit, isStaff, notifyResident, page, userId } from "./shared";
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
    photo: row.photo,
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

async function load(ctx: TenantCtx, id: string): Promise<Row> {
  const row = await ctx.db.select().from(complaints).where(eq(complaints.id, id)).get();
  if (!row || (!isStaff(ctx) && row.residentId !== userId(ctx))) {
    throw new NotFound("Complaint");
  }
  return row;
}

export async function createComplaint({ ctx, input }: { ctx: TenantCtx; input: CreateComplaintInput }) {
  const residentId = userId(ctx);
  const membership = await membershipIn(ctx.env, residentId, ctx.tenant.id);
  const id = newId();
  const now = new Date().toISOString();
  await ctx.db.batch([
    ctx.db.insert(complaints).values({
      id,
      residentId,
      unitId: membership?.unitId ?? null,
      title: input.title,
      description: input.description,
      category: input.category,
      photo: input.photo ?? null,
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
  return getComplaint({ ctx, id });
}

export async function getComplaint({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await load(ctx, id);
  const thread = await ctx.db
    .select()
    .from(complaintMessages)
    .where(eq(complaintMessages.complaintId, id))
    .orderBy(asc(complaintMessages.id));
  const residentName = isStaff(ctx)
    ? ((await userNames(ctx.env, [row.residentId])).get(row.residentId) ?? null)
    : undefined;
  return present(row, { thread, residentName });
}

export async function listMyComplaints({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { limit: number; cursor?: string };
}) {
  const filters: SQL[] = [eq(complaints.residentId, userId(ctx))];
  if (input.cursor) {
    filters.push(lt(complaints.id, input.cursor));
  }
  const rows = await ctx.db
    .select()
    .from(complaints)
    .where(and(...filters))
    .orderBy(desc(complaints.id))
    .limit(input.limit + 1);
  const result = page(rows, input.limit);
  return { items: result.items.map((r) => present(r)), nextCursor: result.nextCursor };
}

export async function listComplaints({ ctx, input }: { ctx: TenantCtx; input: ComplaintListQuery }) {
  const filters: SQL[] = [];
  if (input.cursor) {
    filters.push(lt(complaints.id, input.cursor));
  }
  if (input.status) {
    filters.push(eq(complaints.status, input.status));
  }
  if (input.category) {
    filters.push(eq(complaints.category, input.category));
  }
  filters.push(...jakartaDayFilters(complaints.createdAt, input.from, input.to));
  const rows = await ctx.db
    .select()
    .from(complaints)
    .where(and(...filters))
    .orderBy(desc(complaints.id))
    .limit(input.limit + 1);
  const result = page(rows, input.limit);
  const names = await userNames(
    ctx.env,
    result.items.map((r) => r.residentId),
  );
  return {
    items: result.items.map((r) => present(r, { residentName: names.get(r.residentId) ?? null })),
    nextCursor: result.nextCursor,
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
    throw new Conflict(
      "invalid_transition",
      `A complaint that is ${current.status} cannot become ${input.status}.`,
    );
  }
  if ((input.status === "ditolak" || input.status === current.status) && !input.response) {
    throw new Invalid("response_required", "Tell the resident why, or what progress was made.", [
      { field: "response", message: "required" },
    ]);
  }
  const now = new Date().toISOString();
  const messageId = newId();
  const revision = current.revision + 1;
  // Compare-and-set on the revision; the thread line is inserted in the same batch, and only if the
  // update took effect (the row now carries the new revision), so a lost race leaves no stray line.
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(complaints)
      .set({ status: input.status, revision, updatedAt: now })
      .where(and(eq(complaints.id, id), eq(complaints.revision, current.revision)))
      .returning({ id: complaints.id }),
    ctx.db.insert(complaintMessages).select(
      ctx.db
        .select({
          id: sql<string>`${messageId}`.as("id"),
          complaintId: complaints.id,
          authorId: sql<string>`${userId(ctx)}`.as("author_id"),
          byStaff: sql<boolean>`1`.as("by_staff"),
          status: sql<string>`${input.status}`.as("status"),
          body: sql<string | null>`${input.response ?? null}`.as("body"),
          createdAt: sql<string>`${now}`.as("created_at"),
        })
        .from(complaints)
        .where(and(eq(complaints.id, id), eq(complaints.revision, revision))),
    ),
  ]);
  if (updated.length === 0) {
    throw new Conflict("invalid_transition", "This complaint changed meanwhile; reload it and try again.");
  }
  await audit(ctx, `pengaduan.${input.status}`, "complaint", id, { from: current.status });
  await notifyResident(ctx, current.residentId, {
    subject: `Pengaduan "${current.title}" ${LABEL[input.status]}`,
    text: `Pengaduan Anda "${current.title}" ${LABEL[input.status]}.${input.response ? `\nTanggapan pengurus: ${input.response}` : ""}`,
    idempotencyKey: `pengaduan:${ctx.tenant.slug}:${id}:${messageId}`,
  });
  return getComplaint({ ctx, id });
}

/** Dashboard indicator: new complaints. */
export function countNewComplaints(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(complaints, eq(complaints.status, "baru"));
}
