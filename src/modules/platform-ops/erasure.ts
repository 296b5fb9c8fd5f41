import { sql } from "drizzle-orm";
import { platformAudit, rawAudit } from "../../core/audit";
import type { PlatformCtx } from "../../core/context";
import { rawD1, sqlName } from "../../core/db/raw";
import type { PersonalColumns } from "../../core/module";
import { operatorTenantCtx, tenantRowById } from "../../core/tenancy/contexts";

/** Every module's tenant tables, classified (set by the composition root: platformOpsModule). */
let personalDeclarations: readonly (readonly [string, PersonalColumns])[] = [];
export function usePersonalDeclarations(declarations: readonly (readonly [string, PersonalColumns])[]): void {
  personalDeclarations = declarations;
}

/** Written into personal columns that cannot be empty (NOT NULL without a default). */
export const ERASED_TEXT = "[dihapus]";

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
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
  const reference = `erased:${(await sha256Hex(`${tenant.id}:${input.userId}`)).slice(0, 16)}`;

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
          .prepare(`UPDATE ${sqlName(table)} SET ${sets.join(", ")} WHERE ${sqlName(owner)} = ?`)
          .bind(input.userId),
      );
      labels.push(`${table}:personal`);
    }
    for (const subject of subjects) {
      statements.push(
        d1
          .prepare(`UPDATE ${sqlName(table)} SET ${sqlName(subject)} = ? WHERE ${sqlName(subject)} = ?`)
          .bind(reference, input.userId),
      );
      labels.push(`${table}.${subject}`);
    }
  }
  const entry = { action: "personal_data.erased", targetType: "person", targetId: reference };
  const results = await d1.batch([...statements, rawAudit(tctx, { ...entry, detail: { reference } })]);
  await ctx.platform.batch([
    platformAudit(ctx, {
      ...entry,
      tenantId: tenant.id,
      targetType: "user",
      targetId: input.userId,
      detail: { reference },
    }),
  ]);
  const rows: Record<string, number> = {};
  labels.forEach((label, i) => {
    const changes = results[i]?.meta?.changes ?? 0;
    if (changes > 0) {
      rows[label] = changes;
    }
  });
  return { reference, rows };
}
