import { and, eq, sql } from "drizzle-orm";
import type { PlatformCtx, TenantCtx } from "../../core/context";
import { Conflict, DomainError } from "../../core/errors";
import { publicTenantCtx } from "../../core/tenancy/contexts";
import { jakartaDay } from "../../core/time";
import type { VerifiedLetter } from "../../pages/verify-surat";
import { userNames } from "../identity/service";
import { householdMembers, personAndHouse, personAndHouseQueries } from "../kependudukan/service";
import { letterHtml, tanggalIndonesia } from "./document";
import { type Chain, identityValues, type RegistryPerson } from "./identity";
import { IDENTITY_LABELS, jenisOf } from "./jenis";
import { keptLetter } from "./kept";
import {
  awaitingRw,
  historyQuery,
  isLetterStaff,
  type LetterRow,
  letterAndHistory,
  letterQuery,
  loadLetter,
  presentLetter,
  seenLetter,
  verificationUrl,
} from "./letters";
import { pdfRendering } from "./pdf";
import {
  type Effective,
  effectiveSettings,
  issuedAs,
  type Settings,
  settingsOf,
  settingsQuery,
} from "./settings";
import { type IssuedAs, letters } from "./tables";

export const pdfKey = (slug: string, id: string, version: number) =>
  `tenants/${slug}/surat/${id}/v${version}.pdf`;

/**
 * The letter's HTML, as the PDF prints it: the letterhead and signatory it was finished with, the
 * subject's particulars from the registry, and the RW's "Mengetahui" once acknowledged.
 */
export async function letterDocumentHtml(ctx: TenantCtx, row: LetterRow): Promise<string> {
  const [household, { printed, identity }] = await Promise.all([
    householdMembers({ ctx, id: row.unitId }),
    subjectIdentity(ctx, row, (settings) => issuedAs(ctx, settings)),
  ]);
  return letterHtml({
    issuedAs: printed,
    jenis: jenisOf(row.jenis),
    letter: row,
    identity,
    memberNames: new Map(household.map((m) => [m.id, m.name])),
    verificationUrl: verificationUrl(ctx, row.verificationCode ?? ""),
    rwAcknowledgement:
      row.rwAckStatus === "diketahui" && row.rwAckName && row.rwAckTitle && row.rwAckAt
        ? { name: row.rwAckName, title: row.rwAckTitle, day: jakartaDay(row.rwAckAt) }
        : null,
  });
}

/**
 * The subject's particulars as the letter prints them, from the registry person it is for and the
 * letterhead it was (or would be) issued with.
 */
async function subjectIdentity<C extends Chain>(
  ctx: TenantCtx,
  row: LetterRow,
  chainOf: (settings: Effective) => C,
  read: { stored?: Settings; subject?: Awaited<ReturnType<typeof personAndHouse>> } = {},
) {
  // What the caller's batch read already is not read again.
  const [{ person, house: unit }, current] = await Promise.all([
    read.subject ?? personAndHouse({ ctx, id: row.onBehalfOf, fallbackUnitId: row.unitId }),
    row.issuedAs ? Promise.resolve(null) : effectiveSettings(ctx, read.stored),
  ]);
  // A letter finished before letterheads were kept on it prints today's settings.
  const printed: C | IssuedAs = row.issuedAs ?? chainOf(current ?? (await effectiveSettings(ctx)));
  const identity = person
    ? identityValues(person, unit, printed)
    : { ...identityValues(NOBODY, unit, printed), nama: row.subjectName, nik: "", jenisKelamin: "" };
  return { printed, identity };
}

/**
 * A letter as its reader sees it (`GET /api/surat/:id`): staff also get the subject's registry identity,
 * each particular the letter type prints with its value (issue 46: the letter desk checks who the letter
 * is for before numbering it). A resident gets the request as before.
 */
export async function readLetter({ ctx, id }: { ctx: TenantCtx; id: string }) {
  if (!isLetterStaff(ctx)) {
    const { row, history } = await letterAndHistory(ctx, id);
    return presentLetter(ctx, row, { history });
  }
  // Staff: the letter, its history, the stored letterhead, and the subject and their house (found by
  // the letter's own columns, in the same batch): one round trip.
  const ofLetter = (column: typeof letters.onBehalfOf | typeof letters.unitId) =>
    sql`(SELECT ${column} FROM ${letters} WHERE ${letters.id} = ${id})`;
  const subject = personAndHouseQueries(ctx.db, ofLetter(letters.onBehalfOf), ofLetter(letters.unitId));
  const [[found], history, [stored], person, house] = await ctx.db.batch([
    letterQuery(ctx, id),
    historyQuery(ctx, id),
    settingsQuery(ctx.db),
    ...subject.queries,
  ]);
  const row = seenLetter(ctx, id, found);
  // The requester's name and the subject's particulars at once. Before the letterhead is complete (the
  // desk is told so elsewhere) the address names what is known.
  const [names, { identity }] = await Promise.all([
    userNames({ ctx, ids: [row.residentId] }),
    subjectIdentity(
      ctx,
      row,
      (settings) => ({
        rt: settings.rt,
        rw: settings.rw,
        kelurahan: settings.kelurahan ?? "",
        villageKind: settings.villageKind,
        kecamatan: settings.kecamatan ?? "",
        kota: settings.kota ?? "",
      }),
      { stored: settingsOf(stored), subject: subject.read([person, house]) },
    ),
  ]);
  const letter = presentLetter(ctx, row, { history, residentName: names.get(row.residentId) ?? null });
  return {
    ...letter,
    subject: jenisOf(letter.jenis).identity.map((name) => ({
      name,
      label: IDENTITY_LABELS[name],
      value: identity[name],
    })),
  };
}

/** A person the registry no longer holds (their card moved away): the letter prints the stored name. */
const NOBODY: RegistryPerson = {
  name: "",
  nik: "",
  sex: "L",
  birthPlace: null,
  birthDate: null,
  religion: null,
  occupation: null,
  maritalStatus: null,
  citizenship: "",
};

async function renderLetter(ctx: TenantCtx, row: LetterRow): Promise<Uint8Array> {
  return pdfRendering.create(ctx.env).render(await letterDocumentHtml(ctx, row));
}

/**
 * The official PDF: rendered once per `pdfVersion`, stored in R2, and served from there afterwards.
 * Two first requests at once may both render; they write the same key, and either copy is right.
 */
export async function letterPdf({ ctx, id }: { ctx: TenantCtx; id: string }) {
  const row = await loadLetter(ctx, id);
  if (row.status !== "selesai" || !row.nomorSurat || !row.tanggalSurat || !row.verificationCode) {
    throw new Conflict("letter_not_ready", "The PDF is offered once the letter is selesai with its number.");
  }
  if (awaitingRw(row) && !isLetterStaff(ctx)) {
    throw new Conflict(
      "awaiting_rw_acknowledgement",
      "The letter is finished and waits for the RW's acknowledgement; the PDF is offered once the RW acknowledged it or the RT issues it without the RW.",
    );
  }
  const key = pdfKey(ctx.tenant.slug, row.id, row.pdfVersion);
  const filename = `surat-${row.nomorSurat.replace(/[^A-Za-z0-9.-]+/g, "-")}.pdf`;
  const stored = await ctx.env.FILES.get(key);
  if (stored) {
    return { body: stored.body as ReadableStream, filename, source: "r2" as const };
  }
  const bytes = await renderLetter(ctx, row);
  await ctx.env.FILES.put(key, bytes, {
    httpMetadata: { contentType: "application/pdf" },
    customMetadata: { letterId: row.id, pdfVersion: String(row.pdfVersion) },
  });
  return { body: bytes, filename, source: "render" as const };
}

/**
 * The public verification page's lookup. The code carries the tenant slug before the first dot, so
 * the letter is found in that tenant's database alone; anything unknown is simply "not found".
 *
 * The tenant passes the same checks as on every route, except the `surat` flag: a letter already
 * issued is an official document in someone's hands, and switching the module off later must not
 * make it look forged to whoever scans it. A suspended community is refused (403): the platform no
 * longer vouches for what it issued. A closed one's letters answer from the copy its close kept, for
 * as long as each is valid, and the page says the community has closed (issue 42).
 */
export async function verifyLetter({
  ctx,
  input,
}: {
  ctx: PlatformCtx;
  input: { code: string };
}): Promise<VerifiedLetter | null> {
  const { code } = input;
  const dot = code.indexOf(".");
  if (dot < 3 || code.length > 120) {
    return null;
  }
  let tenantCtx: TenantCtx;
  try {
    tenantCtx = await publicTenantCtx(ctx, code.slice(0, dot));
  } catch (error) {
    // A slug that names no community is one more unknown code, not a different answer.
    if (error instanceof DomainError && error.code === "tenant_not_found") {
      return null;
    }
    // A closed community's letters answer from what the close kept of them (kept.ts), while valid.
    if (error instanceof DomainError && error.code === "tenant_closed") {
      return closedCommunityLetter(ctx, code);
    }
    throw error;
  }
  const row = await tenantCtx.db
    .select()
    .from(letters)
    .where(and(eq(letters.verificationCode, code), eq(letters.status, "selesai")))
    .get();
  if (!row?.nomorSurat || !row.tanggalSurat) {
    return null;
  }
  // A letter finished before letterheads were kept on it names today's signatory.
  const signedBy = row.issuedAs ?? (await effectiveSettings(tenantCtx));
  return {
    tenantName: tenantCtx.tenant.name,
    nomorSurat: row.nomorSurat,
    jenisName: jenisOf(row.jenis).name,
    tanggalSurat: tanggalIndonesia(row.tanggalSurat),
    subjectName: row.subjectName,
    signatory: { name: signedBy.headName ?? "", title: signedBy.headTitle },
    rw:
      row.rwAckStatus === "diketahui" && row.rwAckName && row.rwAckTitle && row.rwAckAt
        ? {
            status: "diketahui" as const,
            name: row.rwAckName,
            title: row.rwAckTitle,
            tanggal: tanggalIndonesia(jakartaDay(row.rwAckAt)),
          }
        : row.rwAckStatus === "menunggu"
          ? { status: "menunggu" as const }
          : null,
  };
}

/** A closed community's letter, from the platform's copy: the same page, saying the community closed. */
async function closedCommunityLetter(ctx: PlatformCtx, code: string): Promise<VerifiedLetter | null> {
  const kept = await keptLetter(ctx, code);
  if (!kept) {
    return null;
  }
  return {
    tenantName: kept.tenantName,
    nomorSurat: kept.nomorSurat,
    jenisName: kept.jenisName,
    tanggalSurat: tanggalIndonesia(kept.tanggalSurat),
    subjectName: kept.subjectName,
    signatory: { name: kept.signatoryName, title: kept.signatoryTitle },
    rw:
      kept.rwStatus === "diketahui" && kept.rwName && kept.rwTitle && kept.rwDay
        ? {
            status: "diketahui",
            name: kept.rwName,
            title: kept.rwTitle,
            tanggal: tanggalIndonesia(kept.rwDay),
          }
        : kept.rwStatus === "menunggu"
          ? { status: "menunggu" }
          : null,
    closed: { validUntil: tanggalIndonesia(kept.validUntil) },
  };
}
