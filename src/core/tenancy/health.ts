import type { PlatformCtx } from "../context";
import { TENANT_MIGRATIONS } from "../db/tenant-migrations.generated";
import { CACHE_TTL_MS } from "./registry";
import { slotBindingName, slotCount, slotDatabase } from "./slots";
import { bindingsOf } from "./system";

export interface SlotHealth {
  slot: number;
  binding: string;
  /** Whether a query answered within the timeout. */
  answers: boolean;
  ms: number;
  /** The newest migration applied (`d1_migrations`), null when none or not answering. */
  migration: string | null;
  applied: number;
  /** Migrations this build bundles that the slot lacks (an unused slot is migrated when claimed). */
  behind: number;
  error?: string;
}

/** The tenant record cache's lifetime (ADR 0007), for the operator's health view. */
export const TENANT_CACHE_TTL_MS = CACHE_TTL_MS;

export const LATEST_TENANT_MIGRATION = TENANT_MIGRATIONS.at(-1)?.name ?? null;

function timeout(ms: number): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms));
}

/**
 * Every bound tenant slot: whether its database answers and which migration it is at. Only core names
 * slots (ADR 0001): the operator's health route reads them through this.
 */
export async function slotHealth(ctx: PlatformCtx, timeoutMs = 2000): Promise<SlotHealth[]> {
  const bindings = bindingsOf(ctx);
  const slots = Array.from({ length: slotCount(bindings) }, (_, i) => i + 1);
  return Promise.all(
    slots.map(async (slot): Promise<SlotHealth> => {
      const started = Date.now();
      const binding = slotBindingName(slot);
      try {
        const db = slotDatabase(bindings, slot);
        const rows = await Promise.race([
          db
            .prepare("SELECT name FROM d1_migrations ORDER BY id")
            .all<{ name: string }>()
            .catch((error: unknown) => {
              // A never-migrated slot has no ledger yet: it answers, at no migration.
              if (String(error).includes("no such table")) {
                return { results: [] as { name: string }[] };
              }
              throw error;
            }),
          timeout(timeoutMs),
        ]);
        const names = new Set(rows.results.map((r) => r.name));
        return {
          slot,
          binding,
          answers: true,
          ms: Date.now() - started,
          migration: rows.results.at(-1)?.name ?? null,
          applied: names.size,
          behind: TENANT_MIGRATIONS.filter((m) => !names.has(m.name)).length,
        };
      } catch (error) {
        return {
          slot,
          binding,
          answers: false,
          ms: Date.now() - started,
          migration: null,
          applied: 0,
          behind: TENANT_MIGRATIONS.length,
          error: String(error instanceof Error ? error.message : error).slice(0, 200),
        };
      }
    }),
  );
}
