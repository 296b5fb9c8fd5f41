import { and, asc, desc, eq, inArray, lt, type SQL, sql } from "drizzle-orm";
import type { TenantCtx, TenantDb, TenantRole } from "../../core/context";
import { jakartaDayFilters } from "../../core/db/paging";
import { loadConfig } from "../../core/env";
import { Conflict, Invalid, NotFound } from "../../core/errors";
import { newId } from "../../core/ids";
import { requireCompleteProfile, userNames } from "../identity/service";
import { householdMembers } from "../kependudukan/service";
import { JENIS, type JenisDef, jenisOf, presentJenis, validateFields } from "./jenis";
import type { CreateLetterInput, LetterListQuery, ResubmitLetterInput } from "./schemas";
import { type LetterStatus, letterEvents, letters } from "./tables";

export type LetterRow = typeof letters.$inferSelect;

/** Who works letters: the secretary and the head (ARCHITECTURE.md roles). */
export const LETTER_STAFF: TenantRole[] = ["sekretaris", "admin"];
export const isLetterStaff = (ctx: TenantCtx) =>
  ctx.actor.kind === "user" && (LETTER_STAFF as string[]).includes(ctx.actor.role);

export function actorId(ctx: TenantCtx): string {
  if (ctx.actor.kind !== "user") {
    throw new Error("letter verbs need a signed-in user");
  }
  return ctx.actor.userId;
}

export function presentLetter(
  ctx: TenantCtx,
  row: LetterRow,
  opts: { residentName?: string | null; history?: (typeof letterEvents.$inferSelect)[] } = {},
) {
  const code = row.status === "selesai" ? row.verificationCode : null;
  return {
    id: row.id,
    jenis: row.jenis,
    jenisName: jenisOf(row.jenis).name,
    residentId: row.residentId,
    ...(opts.residentName === undefined ? {} : { residentName: opts.residentName }),
    onBehalfOf: row.onBehalfOf,
    subjectName: row.subjectName,
    keperluan: row.keperluan,
    fields: JSON.parse(row.fields) as Record<string, unknown>,
    status: row.status,
    nomorSurat: row.nomorSurat,
    tanggalSurat: row.tanggalSurat,
    note: row.note,
    verificationCode: code,
    verificationUrl: code ? verificationUrl(ctx, code) : null,
    pdfAvailable: row.status === "selesai" && Boolean(row.nomorSurat && row.tanggalSurat),
    pdfVersion: row.pdfVersion,
    ...(opts.history
      ? {
          history: opts.history.map((e) => ({
            status: e.status,
            note: e.note,
            byStaff: e.actorId !== row.residentId,
            createdAt: e.createdAt,
          })),
        }
      : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function verificationUrl(ctx: Pick<TenantCtx, "env">, code: string): string {
  return `${loadConfig(ctx.env).APP_URL.replace(/\/$/, "")}/verify/surat/${encodeURIComponent(code)}`;
}

/** Fetch-or-404: residents reach only their own letters; letter staff reach all of the tenant's. */
export async function loadLetter(ctx: TenantCtx, id: string): Promise<LetterRow> {
  const row = await ctx.db.select().from(letters).where(eq(letters.id, id)).get();
  if (!row || (!isLetterStaff(ctx) && row.residentId !== actorId(ctx))) {
    throw new NotFound("Letter");
  }
  return row;
}

/**
 * The history entry of a write, inserted only if the compare-and-set update it rides with took effect
 * (the letter now has `revision`): in the same batch, so a lost race leaves no stray history line.
 */
export function eventIfApplied(
  db: TenantDb,
  e: { id: string; letterId: string; status: string; note: string | null; actorId: string; revision: number },
) {
  return db.insert(letterEvents).select(
    db
      .select({
        id: sql<string>`${e.id}`.as("id"),
        letterId: letters.id,
        status: sql<string>`${e.status}`.as("status"),
        note: sql<string | null>`${e.note}`.as("note"),
        actorId: sql<string>`${e.actorId}`.as("actor_id"),
        createdAt: sql<string>`${new Date().toISOString()}`.as("created_at"),
      })
      .from(letters)
      .where(and(eq(letters.id, e.letterId), eq(letters.revision, e.revision))),
  );
}

/** The validated fields and the printed name, with every member id checked against the household. */
async function checkRequest(
  ctx: TenantCtx,
  def: JenisDef,
  unitId: string,
  input: { onBehalfOf: string; fields: unknown },
) {
  const checked = validateFields(def, input.fields);
  if (!checked.ok) {
    throw new Invalid("invalid_fields", `Invalid fields for ${def.code}.`, checked.errors);
  }
  const fields = checked.value;
  const memberIds = def.fields.flatMap((field) => {
    const value = fields[field.name];
    return field.type === "member" && typeof value === "string"
      ? [value]
      : field.type === "members" && Array.isArray(value)
        ? (value as string[])
        : [];
  });
  const needsHousehold = input.onBehalfOf !== "self" || memberIds.length > 0;
  const household = needsHousehold ? await householdMembers(ctx.db, unitId) : [];
  const byId = new Map(household.map((m) => [m.id, m]));
  for (const id of [...(input.onBehalfOf === "self" ? [] : [input.onBehalfOf]), ...memberIds]) {
    if (!byId.has(id)) {
      // Another household's person is "not yours": 404, as for any object of someone else.
      throw new NotFound("Household member", "household_member_not_found");
    }
  }
  const subjectName =
    input.onBehalfOf === "self"
      ? ((await userNames(ctx.env, [actorId(ctx)])).get(actorId(ctx)) ?? "")
      : (byId.get(input.onBehalfOf)?.name ?? "");
  return { fields, subjectName };
}

export async function createLetter({ ctx, input }: { ctx: TenantCtx; input: CreateLetterInput }) {
  const residentId = actorId(ctx);
  const { unitId } = await requireCompleteProfile(ctx.env, residentId, ctx.tenant.id);
  const def = jenisOf(input.jenis);
  const { fields, subjectName } = await checkRequest(ctx, def, unitId, input);
  const id = newId();
  const now = new Date().toISOString();
  await ctx.db.batch([
    ctx.db.insert(letters).values({
      id,
      residentId,
      unitId,
      jenis: def.code,
      onBehalfOf: input.onBehalfOf,
      subjectName,
      keperluan: input.keperluan,
      fields: JSON.stringify(fields),
      status: "diajukan",
      updatedAt: now,
    }),
    ctx.db.insert(letterEvents).values({
      id: newId(),
      letterId: id,
      status: "diajukan",
      note: null,
      actorId: residentId,
      createdAt: now,
    }),
  ]);
  return getLetter({ ctx, id });
}

/** perlu_perbaikan → diajukan: the resident corrects what staff asked for and sends it again. */
export async function resubmitLetter({
  ctx,
  id,
  input,
}: {
  ctx: TenantCtx;
  id: string;
  input: ResubmitLetterInput;
}) {
  const row = await loadLetter(ctx, id);
  if (row.residentId !== actorId(ctx)) {
    throw new NotFound("Letter");
  }
  if (row.status !== "perlu_perbaikan") {
    throw new Conflict("invalid_transition", `Only a letter sent back for correction can be resubmitted.`);
  }
  const onBehalfOf = input.onBehalfOf ?? row.onBehalfOf;
  const { fields, subjectName } = await checkRequest(ctx, jenisOf(row.jenis), row.unitId, {
    onBehalfOf,
    fields: input.fields ?? JSON.parse(row.fields),
  });
  await casWrite(ctx, row, "diajukan", null, {
    onBehalfOf,
    subjectName,
    keperluan: input.keperluan ?? row.keperluan,
    fields: JSON.stringify(fields),
    pdfVersion: row.pdfVersion + 1,
  });
  return getLetter({ ctx, id });
}

const CANCELLABLE: LetterStatus[] = ["diajukan", "diproses", "perlu_perbaikan"];

export async function cancelLetter({ ctx, id, reason }: { ctx: TenantCtx; id: string; reason?: string }) {
  const row = await loadLetter(ctx, id);
  if (row.residentId !== actorId(ctx)) {
    throw new NotFound("Letter");
  }
  if (!CANCELLABLE.includes(row.status)) {
    throw new Conflict("invalid_transition", `A letter that is ${row.status} can no longer be cancelled.`);
  }
  await casWrite(ctx, row, "dibatalkan", reason ?? null, {});
  return getLetter({ ctx, id });
}

/** A resident's write: compare-and-set on the revision plus its history line, in one batch. */
async function casWrite(
  ctx: TenantCtx,
  row: LetterRow,
  status: LetterStatus,
  note: string | null,
  set: Partial<LetterRow>,
) {
  const revision = row.revision + 1;
  const [updated] = await ctx.db.batch([
    ctx.db
      .update(letters)
      .set({ ...set, status, revision, updatedAt: new Date().toISOString() })
      .where(and(eq(letters.id, row.id), eq(letters.revision, row.revision)))
      .returning({ id: letters.id }),
    eventIfApplied(ctx.db, { id: newId(), letterId: row.id, status, note, actorId: actorId(ctx), revision }),
  ]);
  if (updated.length === 0) {
    throw new Conflict("invalid_transition", "This letter changed meanwhile; reload it and try again.");
  }
}

export async function getLetter({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await loadLetter(ctx, id);
  const history = await ctx.db
    .select()
    .from(letterEvents)
    .where(eq(letterEvents.letterId, id))
    .orderBy(asc(letterEvents.id));
  const residentName = isLetterStaff(ctx)
    ? ((await userNames(ctx.env, [row.residentId])).get(row.residentId) ?? null)
    : undefined;
  return presentLetter(ctx, row, { history, residentName });
}

export async function listMyLetters({
  ctx,
  input,
}: {
  ctx: TenantCtx;
  input: { limit: number; cursor?: string };
}) {
  const filters: SQL[] = [eq(letters.residentId, actorId(ctx))];
  if (input.cursor) {
    filters.push(lt(letters.id, input.cursor));
  }
  const rows = await ctx.db
    .select()
    .from(letters)
    .where(and(...filters))
    .orderBy(desc(letters.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return {
    items: page.map((row) => presentLetter(ctx, row)),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

export async function listLetters({ ctx, input }: { ctx: TenantCtx; input: LetterListQuery }) {
  const filters: SQL[] = [];
  if (input.cursor) {
    filters.push(lt(letters.id, input.cursor));
  }
  if (input.status) {
    filters.push(eq(letters.status, input.status));
  }
  if (input.jenis) {
    filters.push(eq(letters.jenis, input.jenis));
  }
  filters.push(...jakartaDayFilters(letters.createdAt, input.from, input.to));
  const rows = await ctx.db
    .select()
    .from(letters)
    .where(and(...filters))
    .orderBy(desc(letters.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const names = await userNames(
    ctx.env,
    page.map((r) => r.residentId),
  );
  return {
    items: page.map((row) => presentLetter(ctx, row, { residentName: names.get(row.residentId) ?? null })),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** Dashboard indicator: letters awaiting processing (submitted or being processed). */
export function countLettersAwaiting(ctx: TenantCtx): Promise<number> {
  return ctx.db.$count(letters, inArray(letters.status, ["diajukan", "diproses"]));
}

export function listJenis() {
  return { items: JENIS.map(presentJenis) };
}
