import { eq, sql } from "drizzle-orm";
import { audit } from "../../core/audit";
import type { TenantCtx, TenantDb, TenantInfo } from "../../core/context";
import { tenants } from "../../core/db/platform-schema";
import { Conflict, DomainError } from "../../core/errors";
import { requireUser } from "../../core/http/access";
import { tenantAdminContacts } from "../identity/service";
import { checkFormat, defaultFormat, formatNeeds } from "./numberFormat";
import { type LetterSettingsInput, SETTING_NAMES, type SettingName } from "./schemas";
import { type IssuedAs, letterSettings, letters } from "./tables";

type SettingsRow = typeof letterSettings.$inferSelect;
const EMPTY: Omit<SettingsRow, "updatedAt"> & { updatedAt: string | null } = {
  id: 1,
  rt: null,
  rw: null,
  kelurahan: null,
  villageKind: null,
  kecamatan: null,
  kota: null,
  provinsi: null,
  address: null,
  logoDataUrl: null,
  headName: null,
  headTitle: null,
  numberFormat: null,
  rwAcknowledgement: null,
  updatedAt: null,
  updatedBy: null,
  // Not saved yet; the trigger moves it on every later save (core/db/row-version.ts).
  rowVersion: 1,
};
export type Settings = typeof EMPTY;

export async function loadSettings(db: TenantDb): Promise<Settings> {
  return settingsOf(await settingsQuery(db).get());
}

/** The stored settings' row as a query, for a batch with a request's other reads; `settingsOf` reads it. */
export function settingsQuery(db: TenantDb) {
  return db.select().from(letterSettings).where(eq(letterSettings.id, 1));
}

/** The stored settings from their row (none until first saved). */
export const settingsOf = (row: Settings | undefined): Settings => row ?? EMPTY;

/** "RT 01 / RW 05 Sukamaju" → 1 for RT: the numbers a community's name already carries. */
function numberIn(name: string | undefined, word: "RT" | "RW"): string | null {
  const found = name ? new RegExp(`\\b${word}\\s*\\.?\\s*0*(\\d{1,3})\\b`, "i").exec(name) : null;
  return found?.[1] ?? null;
}

const pad3 = (n: string) => n.padStart(3, "0");

/**
 * The settings a letter is made with: the stored ones, and where one is unset, what the community
 * already says about itself (ADR 0030): the RT and RW numbers of its name (or its RW's name), and as
 * signatory the member holding `admin` with the title of the office. Nothing is ever filled with a
 * placeholder: what stays unknown is listed in `missing`.
 */
export interface Effective {
  stored: Settings;
  rt: string | null;
  rw: string | null;
  kelurahan: string | null;
  villageKind: "kelurahan" | "desa";
  kecamatan: string | null;
  kota: string | null;
  provinsi: string | null;
  address: string | null;
  logoDataUrl: string | null;
  headName: string | null;
  headTitle: string;
  numberFormat: string;
  /**
   * Whether finished letters wait for the RW's acknowledgement: only while linked and only when the RT's
   * admin turned it on (issue 44 P6: off by default, since the RW then reads residents' names and the
   * purpose of their letters).
   */
  rwAcknowledgement: boolean;
  rwLinked: boolean;
  missing: SettingName[];
}

export async function effectiveSettings(ctx: TenantCtx, read?: Settings): Promise<Effective> {
  const isRt = ctx.tenant.type === "RT";
  // The stored settings first (`read` when the caller's batch read them already); the admins' names and
  // the parent RW's name are read only for what the stored settings leave unset (a community that
  // completed its settings reads one row).
  const stored = read ?? (await loadSettings(ctx.db));
  const ownRw = stored.rw ?? numberIn(ctx.tenant.name, "RW");
  const parentId = isRt && ownRw === null ? ctx.tenant.parentId : null;
  const [admins, parent] = await Promise.all([
    stored.headName ? [] : tenantAdminContacts({ ctx, tenantId: ctx.tenant.id }),
    parentId
      ? ctx.platform.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, parentId)).get()
      : undefined,
  ]);
  const rt = isRt ? (stored.rt ?? numberIn(ctx.tenant.name, "RT")) : null;
  const rw = ownRw ?? numberIn(parent?.name, "RW");
  const headName = stored.headName ?? admins.find((a) => a.name.trim())?.name ?? null;
  const office = isRt ? (rt ? `Ketua RT ${pad3(rt)}` : "Ketua RT") : rw ? `Ketua RW ${pad3(rw)}` : "Ketua RW";
  const numberFormat = stored.numberFormat ?? defaultFormat(ctx.tenant.type);
  const values = {
    rt,
    rw,
    kelurahan: stored.kelurahan,
    kecamatan: stored.kecamatan,
    kota: stored.kota,
    provinsi: stored.provinsi,
    headName,
  };
  const needed = new Set<SettingName>([
    ...(isRt ? (["rt", "rw"] as const) : (["rw"] as const)),
    "kelurahan",
    "kecamatan",
    "kota",
    "provinsi",
    "headName",
    ...formatNeeds(numberFormat),
  ]);
  const rwLinked = isRt && ctx.tenant.parentId !== null;
  return {
    stored,
    ...values,
    villageKind: stored.villageKind ?? "kelurahan",
    address: stored.address,
    logoDataUrl: stored.logoDataUrl,
    headTitle: stored.headTitle ?? office,
    numberFormat,
    rwAcknowledgement: rwLinked && stored.rwAcknowledgement === true,
    rwLinked,
    missing: SETTING_NAMES.filter((name) => needed.has(name) && !values[name]),
  };
}

const LABELS: Record<SettingName, string> = {
  rt: "RT number (rt)",
  rw: "RW number (rw)",
  kelurahan: "kelurahan or desa (kelurahan)",
  kecamatan: "kecamatan",
  kota: "kota or kabupaten (kota)",
  provinsi: "provinsi",
  headName: "signatory's name (headName)",
};

/** 409 `letter_settings_incomplete`, naming each unset setting (also as `errors`, one per setting). */
export function requireComplete(s: Effective): void {
  if (s.missing.length) {
    throw new DomainError(
      "conflict",
      "letter_settings_incomplete",
      `The letter settings are incomplete: ${s.missing.map((m) => LABELS[m]).join(", ")}. The secretary or admin sets them at PUT /api/surat/settings before letters can be numbered or finished.`,
      { errors: s.missing.map((field) => ({ field, message: "not set" })) },
    );
  }
}

/** The letterhead and signatory a letter is finished with (the settings must be complete). */
export function issuedAs(ctx: TenantCtx, s: Effective): IssuedAs {
  requireComplete(s);
  const { kelurahan, kecamatan, kota, provinsi, headName } = s;
  if (!kelurahan || !kecamatan || !kota || !provinsi || !headName) {
    throw new Conflict("letter_settings_incomplete", "The letter settings are incomplete.");
  }
  return {
    tenantName: ctx.tenant.name,
    rt: s.rt,
    rw: s.rw,
    kelurahan,
    villageKind: s.villageKind,
    kecamatan,
    kota,
    provinsi,
    address: s.address,
    logoDataUrl: s.logoDataUrl,
    headName,
    headTitle: s.headTitle,
  };
}

export function presentSettings(tenant: TenantInfo, s: Effective) {
  return {
    tenantName: tenant.name,
    rt: s.rt,
    rw: s.rw,
    kelurahan: s.kelurahan,
    villageKind: s.villageKind,
    kecamatan: s.kecamatan,
    kota: s.kota,
    provinsi: s.provinsi,
    address: s.address,
    logoDataUrl: s.logoDataUrl,
    headName: s.headName,
    headTitle: s.headTitle,
    numberFormat: s.numberFormat,
    rwAcknowledgement: s.rwAcknowledgement,
    rwLinked: s.rwLinked,
    missing: s.missing,
    updatedAt: s.stored.updatedAt,
  };
}

export async function getSettings({ ctx }: { ctx: TenantCtx }) {
  return presentSettings(ctx.tenant, await effectiveSettings(ctx));
}

/**
 * Fields left out keep their value; null clears one (and lets the community's own name or admin fill
 * it again). Letters already finished keep the letterhead they were finished with (`issuedAs`).
 * Turning the RW's acknowledgement off (false or null) takes the letters still waiting out of the RW's
 * queue in the same batch: the RW reads an RT's letters only while the RT has it on (issue 44 P6).
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
  const withdraw = input.rwAcknowledgement !== undefined && input.rwAcknowledgement !== true;
  await ctx.db.batch([
    ctx.db.insert(letterSettings).values(next).onConflictDoUpdate({ target: letterSettings.id, set: next }),
    ...(withdraw
      ? [
          ctx.db
            .update(letters)
            .set({ rwAckStatus: null, revision: sql`${letters.revision} + 1`, updatedAt: next.updatedAt })
            .where(eq(letters.rwAckStatus, "menunggu")),
        ]
      : []),
    audit(ctx, {
      action: "surat.settings.update",
      targetType: "letter_settings",
      targetId: "1",
      detail: { fields: Object.keys(defined) },
    }),
  ]);
  return getSettings({ ctx });
}
