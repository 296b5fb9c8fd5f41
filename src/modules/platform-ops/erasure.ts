import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { platformAudit, rawAudit } from "../../core/audit";
import type { PlatformCtx } from "../../core/context";
import { afterCursor, keysetPage } from "../../core/db/paging";
import { auditLog } from "../../core/db/platform-schema";
import { rawD1, sqlName } from "../../core/db/raw";
import type { PersonalColumns } from "../../core/module";
import { operatorTenantCtx, tenantRowById } from "../../core/tenancy/contexts";
import type { TenantListArgs } from "./tenant-list";

/** Every module's tenant tables, classified (set by the composition root: platformOpsModule). */
let personalDeclarations: readonly (readonly [string, PersonalColumns])[] = [];
export function usePersonalDeclarations(declarations: readonly (readonly [string, PersonalColumns])[]): void {
  personalDeclarations = declarations;
}

/** Written into personal columns that cannot be empty (NOT NULL without a default). */
export const ERASED_TEXT = "[dihapus]";

const ERASED = "personal_data.erased";

/**
 * The operator-only platform audit rows of the erasures done in a tenant (one per person: the row that
 * keeps the person's reference). No tenant id on the row, so no tenant admin's trail lists them.
 */
function erasuresIn(tenantId: string) {
  return [
    isNull(auditLog.tenantId),
    eq(auditLog.action, ERASED),
    eq(auditLog.targetType, "user"),
    sql`json_extract(${auditLog.detail}, '$.tenantId') = ${tenantId}`,
  ];
}

/**
 * The person's anonymous reference in this tenant: random, never a function of the ids (issue 31: a
 * `sha256(tenantId:userId)` could be recomputed by any staff member who had seen the ids). It is kept in
 * the one record that links it to the account: an operator-only platform audit row (no tenant, so no
 * tenant admin's trail shows it), which a repeated erasure reads to reuse the same reference.
 */
async function referenceFor(ctx: PlatformCtx, tenantId: string, userId: string) {
  const earlier = await ctx.platform
    .select({ detail: auditLog.detail })
    .from(auditLog)
    .where(and(...erasuresIn(tenantId), eq(auditLog.targetId, userId)))
    .limit(1);
  const known = earlier[0]?.detail?.reference;
  if (typeof known === "string") {
    return { reference: known, known: true };
  }
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { reference: `erased:${hex}`, known: false };
}

/**
 * Erases one person's personal data from one tenant (UU 27/2022), keeping the community's records: every
 * row stays (ledger entries, letters, ballots, the audit trail), the person's id in any subject column
 * becomes one anonymous reference (the same for all their rows, so the records still read as one
 * person's), and the personal columns of the rows they own (the first subject column) are blanked: JSON
 * to `{}`/`[]`, nullable text to NULL, required text to "[dihapus]". Driven by each module's
 * `personalData` declaration, so tables added later are covered. One batch with its audit entries.
 */
export async function erasePerson({
  ctx,
  id,
  input,
}: {
  ctx: PlatformCtx;
  id: string;
  input: { userId: string };
}) {
  const tenant = await tenantRowById(ctx, id);
  const tctx = await operatorTenantCtx(ctx, tenant);
  const { reference, known } = await referenceFor(ctx, tenant.id, input.userId);
  if (!known) {
    // Kept before the tenant's rows change: a failure after it leaves a reference a retry reuses, never
    // rows that hold a reference nothing records.
    await ctx.platform.batch([
      platformAudit(ctx, {
        action: ERASED,
        tenantId: null,
        targetType: "user",
        targetId: input.userId,
        detail: { tenantId: tenant.id, reference },
      }),
    ]);
  }

  // Statements built from the declarations are plain D1 statements; the audit row joins them in one batch.
  const d1 = rawD1(tctx);
  const statements: D1PreparedStatement[] = [];
  const labels: string[] = [];
  for (const [table, columns] of personalDeclarations) {
    const subjects = columns.subjects ?? [];
    const owner = columns.owner === undefined ? subjects[0] : columns.owner;
    const personal = columns.personal ?? [];
    if (owner && personal.length) {
      const info = await tctx.db.all<{ name: string; notnull: number }>(
        sql.raw(`PRAGMA table_info(${sqlName(table)})`),
      );
      const required = new Set(info.filter((c) => c.notnull).map((c) => c.name));
      const sets = personal.map((column) => {
        const c = sqlName(column);
        const blank = required.has(column) ? `'${ERASED_TEXT}'` : "NULL";
        return `${c} = CASE WHEN ${c} IS NULL THEN NULL WHEN json_valid(${c}) AND json_type(${c}) = 'object' THEN '{}' WHEN json_valid(${c}) AND json_type(${c}) = 'array' THEN '[]' ELSE ${blank} END`;
      });
      statements.push(
        d1
          .prepare(
            `UPDATE ${sqlName(table)} SET ${sets.join(", ")} WHERE ${sqlName(owner)} = ? RETURNING 1 AS hit`,
          )
          .bind(input.userId),
      );
      labels.push(`${table}:personal`);
    }
    for (const subject of subjects) {
      statements.push(
        d1
          .prepare(
            `UPDATE ${sqlName(table)} SET ${sqlName(subject)} = ? WHERE ${sqlName(subject)} = ? RETURNING 1 AS hit`,
          )
          .bind(reference, input.userId),
      );
      labels.push(`${table}.${subject}`);
    }
  }
  // The tenant's trail (which its admins read, with the platform rows about it) names the reference only.
  const entry = { action: ERASED, targetType: "person", targetId: reference };
  const results = await d1.batch([...statements, rawAudit(tctx, { ...entry, detail: { reference } })]);
  const rows: Record<string, number> = {};
  labels.forEach((label, i) => {
    // Rows returned, not `meta.changes`: D1 counts a trigger's own update too (row_version, ADR 0035).
    const changes = results[i]?.results?.length ?? 0;
    if (changes > 0) {
      rows[label] = changes;
    }
  });
  return { reference, rows };
}

/**
 * The erasures done in a tenant, newest first: the operator-only platform audit rows that keep each
 * person's reference (one per person and tenant; a repeated erasure reuses it). Paged by id.
 */
export async function listErasures({ ctx, id, input }: TenantListArgs) {
  const tenant = await tenantRowById(ctx, id);
  const rows = await ctx.platform
    .select({
      id: auditLog.id,
      userId: auditLog.targetId,
      detail: auditLog.detail,
      createdAt: auditLog.createdAt,
      actorId: auditLog.actorId,
    })
    .from(auditLog)
    .where(and(...erasuresIn(tenant.id), ...afterCursor(auditLog.id, input.cursor, "desc")))
    .orderBy(desc(auditLog.id))
    .limit(input.limit + 1);
  const page = keysetPage(rows, input.limit);
  return {
    items: page.items.map((r) => ({
      id: r.id,
      userId: r.userId ?? "",
      reference: String(r.detail?.reference ?? ""),
      erasedAt: r.createdAt,
      operatorId: r.actorId,
    })),
    nextCursor: page.nextCursor,
  };
}
