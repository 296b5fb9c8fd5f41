import type { TenantCtx } from "../../core/context";
import { DomainError } from "../../core/errors";
import { jakartaDate } from "../../core/format";
import { escapeHtml } from "../../core/html";
import { log } from "../../core/http/log";
import { pdfRendering } from "../../platform/pdf";
import { type SheetStream, streamWorkbook, XLSX_TYPE } from "../../platform/spreadsheets";
import { registrySheets } from "../kependudukan/service";
import {
  cashBookHtml,
  cashBookSheets,
  cashBookYears,
  duesSheets,
  financeReport,
  reportHtml,
  reportMonths,
  reportXlsx,
} from "../keuangan/service";
import { issuedLetterPdfs } from "../surat/service";
import { sha256Hex, type ZipToR2 } from "./zip";

/**
 * The handover pack (issue 45): beside the JSON tables an import reads, a community's archive carries
 * files a new committee or a kelurahan opens as they are: the registry and the dues as workbooks, the
 * cash book and the monthly reports as workbooks and PDFs, the issued letters' PDFs, and `index.html`
 * at the top naming each. Every file is built by the module that owns the data, with the builders its
 * own downloads use (docs/adr/0026-tenant-archive.md, "Handover pack").
 *
 * Bounded: workbooks are streamed into the ZIP page by page (one page of rows in memory); PDFs are
 * printed one at a time, at most `MAX_RENDERS` per archive (each is a browser launch): a letter whose
 * PDF is kept in R2 is copied, not printed. What was not printed is named in the index with the reason.
 */

export const HANDOVER_DIR = "serah-terima";
export const INDEX_PATH = "index.html";
const PDF_TYPE = "application/pdf";

/** Monthly reports: a workbook for each of the latest months with figures, a PDF for the newest ones. */
export const REPORT_MONTHS = 24;
export const REPORT_PDF_MONTHS = 12;
/** Cash-book PDFs: the newest years, each at most this many entries (the workbook holds them all). */
export const CASH_BOOK_PDF_YEARS = 2;
export const CASH_BOOK_PDF_ROWS = 3000;
/** Browser launches per archive, over every PDF printed. */
export const MAX_RENDERS = 30;

export interface HandoverFile {
  path: string;
  bytes: number;
  sha256: string;
  contentType: string;
}

interface Listed {
  path: string;
  section: string;
  description: string;
}

/** Prints PDFs within the budget; a renderer that is not there is asked once, then named in the index. */
export class Printer {
  private left: number;
  unavailable: string | null = null;
  skipped = 0;

  constructor(
    private readonly env: TenantCtx["env"],
    limit = MAX_RENDERS,
  ) {
    this.left = limit;
  }

  async render(html: string): Promise<Uint8Array | null> {
    if (this.unavailable || this.left <= 0) {
      this.skipped += 1;
      return null;
    }
    this.left -= 1;
    try {
      return await pdfRendering.create(this.env).render(html);
    } catch (error) {
      this.skipped += 1;
      if (error instanceof DomainError && error.code === "pdf_renderer_unavailable") {
        this.unavailable = "layanan cetak PDF tidak tersedia saat arsip dibuat";
      } else {
        log("warn", "handover_pdf_failed", { error: String(error) });
      }
      return null;
    }
  }
}

/** The pack being written: its files for the manifest, its lines for the index, and its notes. */
class Pack {
  readonly files: HandoverFile[] = [];
  readonly listed: Listed[] = [];
  readonly notes: string[] = [];
  readonly printer: Printer;

  constructor(
    readonly ctx: TenantCtx,
    private readonly zip: ZipToR2,
  ) {
    this.printer = new Printer(ctx.env);
  }

  async bytes(
    path: string,
    data: Uint8Array,
    contentType: string,
    section?: Listed["section"],
    line?: string,
  ) {
    // Workbooks and PDFs are compressed already; text is deflated.
    await this.zip.add(path, data, contentType !== PDF_TYPE && contentType !== XLSX_TYPE);
    this.files.push({ path, bytes: data.byteLength, sha256: await sha256Hex(data), contentType });
    if (section && line) {
      this.listed.push({ path, section, description: line });
    }
  }

  async workbook(path: string, sheets: SheetStream[], section: string, line: string) {
    const { bytes, sha256 } = await this.zip.addStream(path, streamWorkbook(sheets), false);
    this.files.push({ path, bytes, sha256, contentType: XLSX_TYPE });
    this.listed.push({ path, section, description: line });
  }

  /** A printed PDF, or the note saying it is not there. */
  async pdf(path: string, html: () => Promise<string>, section: string, line: string, missing: string) {
    const pdf = await this.printer.render(await html());
    if (pdf) {
      await this.bytes(path, pdf, PDF_TYPE, section, line);
    } else {
      this.notes.push(missing);
    }
  }
}

const WARGA = "Data warga";
const KEUANGAN = "Keuangan";
const LAPORAN = "Laporan keuangan bulanan";
const SURAT = "Surat yang telah diterbitkan";

async function finance(pack: Pack) {
  const { ctx } = pack;
  await pack.workbook(
    `${HANDOVER_DIR}/iuran.xlsx`,
    duesSheets(ctx),
    KEUANGAN,
    "Semua tagihan iuran per periode dan rumah, serta pembayarannya (termasuk yang dibatalkan).",
  );
  await pack.workbook(
    `${HANDOVER_DIR}/buku-kas.xlsx`,
    cashBookSheets(ctx),
    KEUANGAN,
    "Buku kas lengkap: setiap pemasukan dan pengeluaran menurut tanggal.",
  );
  for (const year of (await cashBookYears(ctx)).slice(0, CASH_BOOK_PDF_YEARS)) {
    await pack.pdf(
      `${HANDOVER_DIR}/buku-kas-${year}.pdf`,
      () => cashBookHtml(ctx, year, CASH_BOOK_PDF_ROWS),
      KEUANGAN,
      `Buku kas tahun ${year} untuk dicetak, dengan saldo berjalan.`,
      `Buku kas tahun ${year} (PDF) tidak disertakan; datanya ada di buku-kas.xlsx.`,
    );
  }
  const months = await reportMonths(ctx, REPORT_MONTHS);
  for (const [index, month] of months.entries()) {
    const base = `${HANDOVER_DIR}/laporan-bulanan/laporan-keuangan-${month}`;
    const { body } = await reportXlsx({ ctx, month });
    await pack.bytes(
      `${base}.xlsx`,
      body,
      XLSX_TYPE,
      LAPORAN,
      `Laporan keuangan bulan ${month} (lembar kerja).`,
    );
    if (index < REPORT_PDF_MONTHS) {
      await pack.pdf(
        `${base}.pdf`,
        async () => reportHtml(await financeReport({ ctx, month })),
        LAPORAN,
        `Laporan keuangan bulan ${month} (PDF).`,
        `Laporan keuangan bulan ${month} (PDF) tidak disertakan; lembar kerjanya ada.`,
      );
    }
  }
}

async function issuedLetters(pack: Pack) {
  const used = new Set<string>();
  let missing = 0;
  for await (const letter of issuedLetterPdfs(pack.ctx, (html) => pack.printer.render(html))) {
    if (!letter.bytes) {
      missing += 1;
      continue;
    }
    let name = letter.name;
    for (let n = 2; used.has(name); n++) {
      name = letter.name.replace(/\.pdf$/, `-${n}.pdf`);
    }
    used.add(name);
    await pack.bytes(`${HANDOVER_DIR}/surat/${name}`, letter.bytes, PDF_TYPE, SURAT, letter.description);
  }
  if (missing > 0) {
    pack.notes.push(
      `${missing} surat selesai tidak disertakan sebagai PDF; unduh dari aplikasi (menu Surat) bila perlu.`,
    );
  }
}

/**
 * Writes the handover pack into `zip` and answers its files for the manifest (the index last). Read
 * only: nothing is written to the tenant's database or its R2 prefixes.
 */
export async function writeHandover(ctx: TenantCtx, zip: ZipToR2, createdAt: Date): Promise<HandoverFile[]> {
  const pack = new Pack(ctx, zip);
  await pack.workbook(
    `${HANDOVER_DIR}/data-warga.xlsx`,
    registrySheets(ctx),
    WARGA,
    "Daftar Kartu Keluarga, anggota keluarga (NIK sebagai teks), kendaraan, dan rumah/unit.",
  );
  await finance(pack);
  await issuedLetters(pack);
  if (pack.printer.unavailable) {
    pack.notes.push(`Sebab PDF tidak disertakan: ${pack.printer.unavailable}.`);
  } else if (pack.printer.skipped > 0) {
    pack.notes.push(
      `Satu arsip mencetak paling banyak ${MAX_RENDERS} PDF; sisanya dapat diunduh dari aplikasi.`,
    );
  }
  const index = indexHtml(ctx.tenant.name, createdAt, pack.listed, pack.notes);
  await pack.bytes(INDEX_PATH, new TextEncoder().encode(index), "text/html; charset=utf-8");
  return pack.files;
}

/** The index page: the community, the archive's date, each file by section with one line, and the notes. */
export function indexHtml(
  tenantName: string,
  createdAt: Date,
  listed: readonly Listed[],
  notes: readonly string[],
) {
  const sections = [...new Set(listed.map((l) => l.section))];
  const list = sections
    .map(
      (section) =>
        `<h2>${escapeHtml(section)}</h2><ul>${listed
          .filter((l) => l.section === section)
          .map(
            (l) =>
              `<li><a href="${escapeHtml(encodeURI(l.path))}">${escapeHtml(l.path)}</a> — ${escapeHtml(l.description)}</li>`,
          )
          .join("")}</ul>`,
    )
    .join("\n");
  const noteList = notes.length
    ? `<h2>Catatan</h2><ul>${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join("")}</ul>`
    : "";
  return `<!doctype html><html lang="id"><head><meta charset="utf-8"><title>Arsip ${escapeHtml(tenantName)}</title>
<style>body{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em;color:#111;line-height:1.45}h1{font-size:1.5em}h2{font-size:1.15em;margin-top:1.5em}li{margin:.3em 0}</style></head><body>
<h1>Arsip serah terima ${escapeHtml(tenantName)}</h1>
<p>Tanggal arsip: ${escapeHtml(jakartaDate(createdAt))}. Berkas di bawah ini dapat dibuka langsung (Excel, LibreOffice, pembaca PDF) oleh pengurus baru atau kelurahan.</p>
${list}
${noteList}
<h2>Data untuk pemulihan</h2><ul>
<li><code>tables/</code> — salinan lengkap basis data komunitas (JSON), dibaca saat arsip dipulihkan ke aplikasi.</li>
<li><code>files/</code> — berkas yang diunggah (foto, lampiran, PDF tersimpan).</li>
<li><code>manifest.json</code> dan <code>manifest.sig</code> — daftar isi arsip dengan ukuran dan sidik SHA-256, serta tanda tangannya.</li>
</ul>
</body></html>
`;
}
