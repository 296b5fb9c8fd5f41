import { eq } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx, TenantDb, TenantInfo } from "../../core/context";
import { requireUser } from "../../core/http/access";
import { checkFormat, DEFAULT_FORMAT } from "./numberFormat";
import type { LetterSettingsInput } from "./schemas";
import { letterSettings } from "./tables";

type SettingsRow = typeof letterSettings.$inferSelect;
const EMPTY: Omit<SettingsRow, "updatedAt"> & { updatedAt: string | null } = {
  id: 1,
  rt: null,
  rw: null,
  kelurahan: null,
  kecamatan: null,
  kota: null,
  provinsi: null,
  address: null,
  logoDataUrl: null,
  headName: null,
  headTitle: null,
  numberFormat: null,
  updatedAt: null,
  updatedBy: null,
};
export type Settings = typeof EMPTY;

export async function loadSettings(db: TenantDb): Promise<Settings> {
  return (await db.select().from(letterSettings).where(eq(letterSettings.id, 1)).get()) ?? EMPTY;
}

export function presentSettings(tenant: TenantInfo, s: Settings) {
  return {
    tenantName: tenant.name,
    rt: s.rt,
    rw: s.rw,
    kelurahan: s.kelurahan,
    kecamatan: s.kecamatan,
    kota: s.kota,
    provinsi: s.provinsi,
    address: s.address,
    logoDataUrl: s.logoDataUrl,
    headName: s.headName,
    headTitle: s.headTitle,
    numberFormat: s.numberFormat ?? DEFAULT_FORMAT,
    updatedAt: s.updatedAt,
  };
}

export async function getSettings({ ctx }: { ctx: TenantCtx }) {
  return presentSettings(ctx.tenant, await loadSettings(ctx.db));
}

/**
 * Fields left out keep their value; null clears one. Letters already issued keep the letterhead they
 * were rendered with: an official letter does not change when the RT later edits its settings.
 */
export async function updateSettings({ ctx, input }: { ctx: TenantCtx; input: LetterSettingsInput }) {
  if (input.numberFormat) {
    checkFormat(input.numberFormat);
  }
  const current = await loadSettings(ctx.db);
  const defined = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const next = {
    ...current,
    ...defined,
    id: 1,
    updatedAt: ctx.now().toISOString(),
    updatedBy: requireUser(ctx).userId,
  };
  await ctx.db.batch([
    ctx.db.insert(letterSettings).values(next).onConflictDoUpdate({ target: letterSettings.id, set: next }),
    audit(ctx, {
      action: "surat.settings.update",
      targetType: "letter_settings",
      targetId: "1",
      detail: { fields: Object.keys(defined) },
    }),
  ]);
  return presentSettings(ctx.tenant, next);
}
