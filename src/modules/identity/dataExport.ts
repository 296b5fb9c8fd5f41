import { inArray, sql } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { audit, platformAudit } from "../../core/audit";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { users } from "../../core/db/identity-schema";
import { tenants } from "../../core/db/platform-schema";
import { rawD1 } from "../../core/db/raw";
import { rowById } from "../../core/db/rows";
import { NotFound } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import type { OwnRowsPerson, PersonalColumns } from "../../core/module";
import { notifyFor } from "../../platform/notify";
import { supportTicketsOf } from "../support/service";
import {
  applicationsOf,
  membershipsOf,
  platformActivityOf,
  sessionsOf,
  signInLinksOf,
} from "./dataExportPlatform";
import { viaNotify } from "./devices";
import { membershipStanding } from "./duties";
import { dataExportRateLimit } from "./limits";
import { NotificationPreferences } from "./schemas";
import { ownCommunityCtx } from "./service";

/**
 * A person's own data (UU 27/2022, the right of access): everything the platform holds about the
 * caller, as one JSON document. The platform part is read here (identity owns users, memberships,
 * sessions and sign-in links; support tickets are read from support's tables); the part in each
 * community's database is driven by every module's `personalData` declaration (core/module.ts), so a
 * module added later is in the export once it declares its tables:
 *
 * - rows the caller owns (their id in the owner column, or matched by `ownRows`): every column but
 *   other people's ids (other subject columns) and `aboutOthers` columns;
 * - rows that only mention the caller (their id in another subject column: the officer who decided a
 *   letter, the clerk who recorded a payment): the columns declared non-personal, and their own id,
 *   never the personal columns, which belong to the row's owner.
 *
 * Nothing secret is read: no password, refresh-token or sign-in-link hash, no reply token.
 */

type Declarations = readonly (readonly [string, PersonalColumns])[];

/** Every module's tenant tables, classified (set by the composition root: dataExportModule). */
let personalDeclarations: Declarations = [];
export function usePersonalDeclarations(declarations: Declarations): void {
  personalDeclarations = declarations;
}

const Row = z.record(z.string(), z.unknown());
const TenantRef = z.object({ slug: z.string(), name: z.string(), type: z.enum(["RT", "RW"]) });

export const DataExport = z
  .object({
    format: z.literal("warga-personal-data-v1"),
    exportedAt: z.string(),
    account: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string().nullable(),
      whatsapp: z.string().nullable(),
      platformRole: z.string().nullable(),
      status: z.string(),
      hasPassword: z.boolean(),
      createdAt: z.string(),
      updatedAt: z.string(),
    }),
    memberships: z.array(
      z.object({
        tenant: TenantRef,
        roles: z.array(z.string()),
        resident: z.boolean(),
        unitId: z.string().nullable(),
        personId: z.string().nullable(),
        createdAt: z.string(),
      }),
    ),
    sessions: z.array(Row),
    signInLinks: z.array(Row),
    residentApplications: z.array(Row),
    supportTickets: z.array(Row),
    platformActivity: z.array(Row),
    notificationPreferences: NotificationPreferences,
    communities: z.array(
      z.object({
        tenant: TenantRef,
        /** `suspended`: the community's database is closed while it is suspended; ask again later. */
        status: z.enum(["included", "suspended"]),
        /** Per SQL table: rows that are yours (`own`) and rows that only name you (`mentions`). */
        tables: z.record(z.string(), z.object({ own: z.array(Row), mentions: z.array(Row) })),
      }),
    ),
    notIncluded: z.array(z.string()),
  })
  .openapi("PersonalDataExport");
export type DataExport = z.infer<typeof DataExport>;

/** Told to the person in the export itself, so an empty section is not mistaken for "nothing held". */
const NOT_INCLUDED = [
  "Push device tokens and the delivery log of messages sent to you are held by the notification service, which sends them; they are removed when you sign out of a device.",
  "Sign-in with Google (OAuth) stores no link: an account is found by its email address each time.",
  "Registry records are included through the family-card entry your account is linked to by the community's secretariat: your own entry, the events recorded about you, and the family card when you are its head. Without that link none are included; other members' records of your family card, and its vehicles, belong to the household and are shown by the secretariat.",
  "Files (photos, attachments) are listed by id; open them in the app.",
];

type Person = OwnRowsPerson;

const OWN = "__warga_own";

/** Renders a drizzle condition to D1's text and positional parameters. */
const dialect = new SQLiteSyncDialect();

interface TableQuery {
  table: string;
  statement: D1PreparedStatement;
  present(row: Record<string, unknown>): { own: boolean; row: Record<string, unknown> };
}

function tableQuery(
  d1: D1Database,
  table: string,
  columns: PersonalColumns,
  person: Person,
): TableQuery | null {
  const subjects = columns.subjects ?? [];
  const owner = columns.owner === undefined ? subjects[0] : columns.owner;
  const conditions = subjects.map((s) => sql`${sql.identifier(s)} = ${person.userId}`);
  // The owning module's own condition, built from its column objects (kependudukan's registry rows).
  const ownRows = columns.ownRows ? columns.ownRows(person) : null;
  if (ownRows) {
    conditions.push(sql`(${ownRows})`);
  }
  if (!conditions.length) {
    return null;
  }
  const query = dialect.sqlToQuery(
    sql`SELECT *, ${ownRows ? sql`coalesce((${ownRows}), 0)` : sql`0`} AS ${sql.identifier(OWN)} FROM ${sql.identifier(table)} WHERE ${sql.join(conditions, sql` OR `)}`,
  );
  const statement = d1.prepare(query.sql).bind(...query.params);
  const personal = new Set(columns.personal ?? []);
  const aboutOthers = new Set(columns.aboutOthers ?? []);
  const subjectSet = new Set(subjects);
  return {
    table,
    statement,
    present(raw) {
      const own = Boolean(raw[OWN]) || (owner ? raw[owner] === person.userId : false);
      const row: Record<string, unknown> = {};
      for (const [column, value] of Object.entries(raw)) {
        if (column === OWN || aboutOthers.has(column)) {
          continue;
        }
        // Another person's id (the officer who decided, the author of the row you are named in).
        if (subjectSet.has(column) && value !== person.userId && value !== null) {
          continue;
        }
        // The personal fields of a row you are only named in are its owner's.
        if (!own && personal.has(column)) {
          continue;
        }
        row[column] = value;
      }
      return { own, row };
    },
  };
}

/** The caller's rows in one community's database, per table (tables without any left out). */
async function communityTables(tctx: TenantCtx, person: Person) {
  const d1 = rawD1(tctx);
  const queries = personalDeclarations
    .map(([table, columns]) => tableQuery(d1, table, columns, person))
    .filter((q): q is TableQuery => q !== null);
  const results = queries.length
    ? await d1.batch<Record<string, unknown>>(queries.map((q) => q.statement))
    : [];
  const tables: Record<string, { own: Record<string, unknown>[]; mentions: Record<string, unknown>[] }> = {};
  let rows = 0;
  queries.forEach((query, i) => {
    const found = results[i]?.results ?? [];
    if (!found.length) {
      return;
    }
    const entry = { own: [] as Record<string, unknown>[], mentions: [] as Record<string, unknown>[] };
    for (const raw of found) {
      const { own, row } = query.present(raw);
      (own ? entry.own : entry.mentions).push(row);
    }
    tables[query.table] = entry;
    rows += found.length;
  });
  return { tables, rows };
}

/** A partial export would read as "nothing more is held": the service being down is 503, not silence. */
function preferencesOf(ctx: PlatformCtx, userId: string) {
  return viaNotify(() => notifyFor(ctx.env).preferences(userId));
}

/** Tenants named anywhere in the export (sessions, applications, activity) shown by slug, not internal id. */
async function tenantSlugs(
  ctx: PlatformCtx,
  mine: Awaited<ReturnType<typeof membershipsOf>>,
  named: { tenantId: string | null }[],
) {
  const tenantIds = new Set<string>(named.flatMap((r) => (r.tenantId ? [r.tenantId] : [])));
  const slugs = new Map(mine.map((m) => [m.tenant.id, m.tenant.slug]));
  const unknown = [...tenantIds].filter((id) => !slugs.has(id));
  if (unknown.length) {
    for (const t of await ctx.platform
      .select({ id: tenants.id, slug: tenants.slug })
      .from(tenants)
      .where(inArray(tenants.id, unknown))) {
      slugs.set(t.id, t.slug);
    }
  }
  return (id: string | null) => (id ? (slugs.get(id) ?? null) : null);
}

/** Each community's own tables about the person; suspended ones are listed without data. */
async function communitySections(
  ctx: PlatformCtx,
  userId: string,
  mine: Awaited<ReturnType<typeof membershipsOf>>,
) {
  const communities: DataExport["communities"] = [];
  const disclosed: { tctx: TenantCtx; rows: number }[] = [];
  for (const { membership, tenant } of mine) {
    const ref = { slug: tenant.slug, name: tenant.name, type: tenant.type };
    const tctx = await ownCommunityCtx({ ctx, own: { membership, tenant } });
    if (!tctx) {
      communities.push({ tenant: ref, status: "suspended", tables: {} });
      continue;
    }
    // Registry rows are the person's through the account's link to their family-card entry, never by
    // a name or number that a namesake or a neighbour could share.
    const { tables, rows } = await communityTables(tctx, {
      userId,
      unitId: membership.unitId,
      personId: membership.personId,
    });
    communities.push({ tenant: ref, status: "included", tables });
    disclosed.push({ tctx, rows });
  }
  return { communities, disclosed };
}

/** Records the disclosure in each community read and the export in the platform's log. */
async function recordExport(
  ctx: PlatformCtx,
  userId: string,
  communities: DataExport["communities"],
  disclosed: { tctx: TenantCtx; rows: number }[],
) {
  const entry = { action: "personal_data.exported", targetType: "user", targetId: userId };
  await Promise.all([
    ...disclosed.map(({ tctx, rows }) => tctx.db.batch([audit(tctx, { ...entry, detail: { rows } })])),
    ctx.platform.batch([
      platformAudit(ctx, {
        ...entry,
        tenantId: null,
        detail: { communities: communities.map((c) => ({ slug: c.tenant.slug, status: c.status })) },
      }),
    ]),
  ]);
}

/**
 * Everything held about the caller. Limited per account (it reads every community's database); each
 * community whose data was read records the disclosure in its audit log, and the platform's log records
 * the export, so an export made with a stolen session can be found afterwards.
 */
export async function exportPersonalData({ ctx }: { ctx: PlatformCtx }): Promise<DataExport> {
  const actor = requireUser(ctx);
  await dataExportRateLimit(ctx.env, [{ policy: "data-export:user", subject: actor.userId }]);
  const user = await rowById(ctx.platform, users, actor.userId);
  if (!user) {
    throw new NotFound("User");
  }
  const [mine, sessionRows, links, applications, activity, tickets, preferences] = await Promise.all([
    membershipsOf(ctx, user.id),
    sessionsOf(ctx, user.id),
    signInLinksOf(ctx, user.id),
    applicationsOf(ctx, user.id),
    platformActivityOf(ctx, user.id),
    supportTicketsOf(ctx, user.id),
    preferencesOf(ctx, user.id),
  ]);

  const slugOf = await tenantSlugs(ctx, mine, [...sessionRows, ...applications, ...activity]);

  const { communities, disclosed } = await communitySections(ctx, user.id, mine);

  await recordExport(ctx, user.id, communities, disclosed);

  return {
    format: "warga-personal-data-v1",
    exportedAt: ctx.now().toISOString(),
    account: {
      id: user.id,
      name: user.name,
      email: user.email,
      whatsapp: user.whatsapp,
      platformRole: user.platformRole,
      status: user.status,
      hasPassword: user.passwordHash !== null,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    },
    memberships: mine.map(({ membership, tenant }) => ({
      tenant: { slug: tenant.slug, name: tenant.name, type: tenant.type },
      roles: membership.roles,
      resident: membershipStanding(membership).resident,
      unitId: membership.unitId,
      personId: membership.personId,
      createdAt: membership.createdAt,
    })),
    sessions: sessionRows.map(({ tenantId, ...s }) => ({ ...s, tenant: slugOf(tenantId) })),
    signInLinks: links,
    residentApplications: applications.map(({ tenantId, ...a }) => ({ ...a, tenant: slugOf(tenantId) })),
    supportTickets: tickets,
    // What you did, and what was done to your account; another person's id and IP are not yours.
    platformActivity: activity.map(({ tenantId, actorId, ip, ...a }) => ({
      ...a,
      tenant: slugOf(tenantId),
      byYou: actorId === user.id,
      ip: actorId === user.id ? ip : null,
    })),
    notificationPreferences: preferences,
    communities,
    notIncluded: NOT_INCLUDED,
  };
}
