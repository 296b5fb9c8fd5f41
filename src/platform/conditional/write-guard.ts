import type { StatementFacts, WriteAttachment, WriteTarget } from "../../core/db/handles";
import { platformPreconditionChecks } from "../../core/db/platform-schema";
import { sqlName } from "../../core/db/raw";
import { ROW_VERSION } from "../../core/db/row-version";
import { tenantPreconditionChecks } from "../../core/db/tenant-schema";
import { PreconditionFailed } from "../../core/errors";
import { type RowTarget, rowWhere, type VersionedResource } from "./resource";

const GUARD_FAILED = "precondition_failed";

function errorText(error: unknown): string {
  if (error instanceof Error) {
    return `${error.message} ${error.cause instanceof Error ? error.cause.message : ""}`;
  }
  return String(error);
}

/**
 * What a write under a versioned path adds to each batch that writes its table in its database: the
 * guard ahead (the first such batch only, when the request sent If-Match) and a read of the row's
 * version behind. Which batch writes the table is what the handle knows of its statements
 * (core/db/handles.ts `StatementFacts`): drizzle's metadata of the builder, made from the table object;
 * raw SQL names no table and counts as writing it. Exported for the test that moves the row between the
 * early check and the batch.
 */
export class VersionedWrite implements WriteAttachment {
  wrote = false;
  /** Whether a write was refused for a stale If-Match (the handler had passed its own checks). */
  refused = false;
  version: number | null = null;
  private guarded = false;

  /**
   * `platform`: the platform database's binding, to tell its batches from a tenant database's; `stale`:
   * the request's If-Match names another version, so no batch that writes anything may run.
   */
  constructor(
    private readonly resource: VersionedResource,
    private readonly target: RowTarget,
    private readonly expected: number | null,
    private readonly platform: D1Database,
    readonly stale = false,
  ) {}

  private writesTable(statement: StatementFacts): boolean {
    return (
      statement.write && (statement.tables === null || statement.tables.includes(this.resource.tableName))
    );
  }

  attach({ raw, database }: WriteTarget, statements: readonly StatementFacts[]) {
    if (this.stale && statements.some((s) => s.write)) {
      this.refused = true;
      throw new PreconditionFailed();
    }
    const onPlatform = database === this.platform;
    if (
      onPlatform !== (this.resource.home.database === "platform") ||
      !statements.some((s) => this.writesTable(s))
    ) {
      return null;
    }
    const table = sqlName(this.resource.table);
    const { where, binds } = rowWhere(this.resource, this.target);
    const checks = onPlatform ? platformPreconditionChecks : tenantPreconditionChecks;
    const before =
      this.expected === null || this.guarded
        ? []
        : [
            raw
              .prepare(
                `INSERT OR REPLACE INTO ${sqlName(checks)} ("id", "ok") VALUES (1, ` +
                  `(SELECT coalesce(max(${sqlName(ROW_VERSION)}), 0) FROM ${table} WHERE ${where}) = ?${binds.length + 1})`,
              )
              .bind(...binds, this.expected),
          ];
    const after = [
      raw.prepare(`SELECT ${sqlName(ROW_VERSION)} AS v FROM ${table} WHERE ${where}`).bind(...binds),
    ];
    return { before, after };
  }

  committed(after: readonly D1Result[]): void {
    this.guarded = true;
    this.wrote = true;
    const row = after[0]?.results[0] as { v?: number } | undefined;
    this.version = row?.v ?? null;
  }

  failed(error: unknown): Error | null {
    return errorText(error).includes(GUARD_FAILED) ? new PreconditionFailed() : null;
  }
}
