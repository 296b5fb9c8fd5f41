import { and, asc, eq, gt, isNotNull } from "drizzle-orm";
import type { TenantCtx } from "../../core/context";
import { tanggalIndonesia } from "./dates";
import { jenisOf } from "./jenis";
import { letterDocumentHtml, pdfKey } from "./publish";
import { letters } from "./tables";

/**
 * The issued letters of a community's handover pack (platform-ops' archive, issue 45): every finished,
 * numbered letter's PDF, the copy kept in R2 when there is one, else printed the way the download
 * prints it (`letterDocumentHtml`) through the caller's `render`, which bounds how many it prints and
 * answers null past that or when printing fails. Nothing is written: a printed copy is not stored, so
 * an archive never changes what it archives.
 */

const PAGE = 200;

export interface IssuedLetterPdf {
  /** A file name from the letter's number and subject (the caller keeps them unique). */
  name: string;
  /** One line for the index: type, number, subject and date. */
  description: string;
  /** The PDF, or null when there was none kept and none could be printed. */
  bytes: Uint8Array | null;
}

const safe = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9.-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60) || "surat";

export async function* issuedLetterPdfs(
  ctx: TenantCtx,
  render: (html: string) => Promise<Uint8Array | null>,
): AsyncGenerator<IssuedLetterPdf> {
  let after: string | null = null;
  for (;;) {
    const rows = await ctx.db
      .select()
      .from(letters)
      .where(
        and(
          eq(letters.status, "selesai"),
          isNotNull(letters.nomorSurat),
          after ? gt(letters.id, after) : undefined,
        ),
      )
      .orderBy(asc(letters.id))
      .limit(PAGE);
    for (const row of rows) {
      const nomor = row.nomorSurat ?? "";
      const stored = await ctx.env.FILES.get(pdfKey(ctx.tenant.slug, row.id, row.pdfVersion));
      const bytes = stored
        ? new Uint8Array(await stored.arrayBuffer())
        : await render(await letterDocumentHtml(ctx, row));
      yield {
        name: `${safe(nomor)}_${safe(row.subjectName)}.pdf`,
        description: `${jenisOf(row.jenis).name} No. ${nomor} untuk ${row.subjectName}${
          row.tanggalSurat ? `, ${tanggalIndonesia(row.tanggalSurat)}` : ""
        }`,
        bytes,
      };
    }
    if (rows.length < PAGE) {
      return;
    }
    after = rows.at(-1)?.id ?? null;
  }
}
