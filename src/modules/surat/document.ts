import QRCode from "qrcode-svg";
import type { TenantInfo } from "../../core/context";
import { escapeHtml } from "../../core/html";
import { addDays } from "../../core/time";
import type { JenisDef } from "./jenis";
import type { LetterRow } from "./service";
import type { Settings } from "./settings";

/** The letter as one self-contained HTML page (no network, no script): what Browser Rendering prints. */

const MONTHS = [
  "Januari",
  "Februari",
  "Maret",
  "April",
  "Mei",
  "Juni",
  "Juli",
  "Agustus",
  "September",
  "Oktober",
  "November",
  "Desember",
];

/** 2026-11-21 → 21 November 2026 (the letter's date is a calendar day, no time zone involved). */
export function tanggalIndonesia(day: string): string {
  const [y, m, d] = day.slice(0, 10).split("-").map(Number);
  return `${d} ${MONTHS[(m ?? 1) - 1]} ${y}`;
}

/** The calendar day `days` after `day` (both YYYY-MM-DD). */
function dayPlus(day: string, days: number): string {
  return addDays(`${day}T00:00:00Z`, days).toISOString().slice(0, 10);
}

const rupiah = (n: number) => `Rp ${n.toLocaleString("id-ID")}`;

export interface Subject {
  name: string;
  nik: string | null;
  sex: "L" | "P" | null;
  birthPlace: string | null;
  birthDate: string | null;
}

export interface LetterDocument {
  tenant: TenantInfo;
  settings: Settings;
  jenis: JenisDef;
  letter: LetterRow;
  subject: Subject;
  unit: { block: string; number: string } | null;
  memberNames: Map<string, string>;
  verificationUrl: string;
}

function fieldValue(doc: LetterDocument, name: string, value: unknown): string {
  const def = doc.jenis.fields.find((f) => f.name === name);
  if (!def || value === undefined || value === null || value === "") {
    return "";
  }
  switch (def.type) {
    case "select":
      return def.options?.find((o) => o.value === value)?.label ?? String(value);
    case "money":
      return rupiah(Number(value));
    case "date":
      return tanggalIndonesia(String(value));
    case "datetime": {
      const text = String(value);
      return `${tanggalIndonesia(text)} pukul ${text.slice(11, 16).replace(":", ".")}`;
    }
    case "member":
      return doc.memberNames.get(String(value)) ?? "";
    case "members":
      return (value as string[]).map((id) => doc.memberNames.get(id) ?? "").join(", ");
    default:
      return String(value);
  }
}

const row = (label: string, value: string) =>
  value
    ? `<tr><td class="l">${escapeHtml(label)}</td><td class="c">:</td><td>${escapeHtml(value)}</td></tr>`
    : "";

function letterhead(doc: LetterDocument): string {
  const s = doc.settings;
  const rtRw = [s.rt ? `RT ${s.rt.padStart(3, "0")}` : "", s.rw ? `RW ${s.rw.padStart(3, "0")}` : ""]
    .filter(Boolean)
    .join(" / ");
  const region = [
    s.kelurahan ? `Kelurahan ${s.kelurahan}` : "",
    s.kecamatan ? `Kecamatan ${s.kecamatan}` : "",
    s.kota ?? "",
    s.provinsi ?? "",
  ]
    .filter(Boolean)
    .join(", ");
  const logo = s.logoDataUrl ? `<img class="logo" src="${escapeHtml(s.logoDataUrl)}" alt="">` : "";
  return `<header>${logo}<div class="kop">
  <div class="org">PENGURUS ${escapeHtml(doc.tenant.name.toUpperCase())}</div>
  ${rtRw ? `<div>${escapeHtml(rtRw)}</div>` : ""}
  ${region ? `<div>${escapeHtml(region)}</div>` : ""}
  ${s.address ? `<div class="addr">${escapeHtml(s.address)}</div>` : ""}
</div></header>`;
}

function qrSvg(url: string): string {
  return new QRCode({ content: url, ecl: "M", join: true, container: "svg-viewbox", padding: 0 }).svg();
}

export function letterHtml(doc: LetterDocument): string {
  const { letter, jenis, subject, settings } = doc;
  const tanggal = letter.tanggalSurat ?? "";
  const fields = letter.fields;
  const headTitle =
    settings.headTitle ?? (settings.rt ? `Ketua RT ${settings.rt.padStart(3, "0")}` : "Ketua RT");
  const address = [doc.unit ? `Blok ${doc.unit.block} No. ${doc.unit.number}` : "", settings.address ?? ""]
    .filter(Boolean)
    .join(", ");
  const validity =
    jenis.validityDays && tanggal
      ? `<p>Surat keterangan ini berlaku sampai dengan tanggal ${escapeHtml(tanggalIndonesia(dayPlus(tanggal, jenis.validityDays)))}.</p>`
      : "";
  const fieldRows = jenis.fields.map((f) => row(f.label, fieldValue(doc, f.name, fields[f.name]))).join("");
  return `<!doctype html>
<html lang="id"><head><meta charset="utf-8"><title>${escapeHtml(letter.nomorSurat ?? "")}</title>
<style>
  @page { size: A4; }
  body { font-family: "Liberation Serif", "Times New Roman", serif; font-size: 12pt; color: #000; line-height: 1.45; }
  header { display: flex; align-items: center; border-bottom: 3px double #000; padding-bottom: 8px; }
  .logo { width: 72px; height: 72px; object-fit: contain; margin-right: 16px; }
  .kop { flex: 1; text-align: center; }
  .org { font-size: 15pt; font-weight: bold; }
  .addr { font-size: 10.5pt; }
  h1 { font-size: 13pt; text-align: center; text-decoration: underline; margin: 22px 0 0; }
  .nomor { text-align: center; margin: 2px 0 18px; }
  table { border-collapse: collapse; margin: 6px 0 10px 24px; }
  td { vertical-align: top; padding: 1px 4px; }
  td.l { width: 200px; } td.c { width: 8px; }
  .foot { display: flex; justify-content: space-between; align-items: flex-end; margin-top: 28px; }
  .qr { width: 110px; font-size: 8pt; }
  .qr svg { width: 96px; height: 96px; }
  .sign { text-align: center; width: 260px; }
  .space { height: 70px; }
</style></head>
<body>
${letterhead(doc)}
<h1>${escapeHtml(jenis.name.toUpperCase())}</h1>
<div class="nomor">Nomor: ${escapeHtml(letter.nomorSurat ?? "")}</div>
<p>Yang bertanda tangan di bawah ini, ${escapeHtml(headTitle)} ${escapeHtml(doc.tenant.name)}, menerangkan bahwa:</p>
<table>
${row("Nama", subject.name)}
${row("NIK", subject.nik ?? "")}
${row("Jenis kelamin", subject.sex === "L" ? "Laki-laki" : subject.sex === "P" ? "Perempuan" : "")}
${row(
  "Tempat, tanggal lahir",
  [subject.birthPlace ?? "", subject.birthDate ? tanggalIndonesia(subject.birthDate) : ""]
    .filter(Boolean)
    .join(", "),
)}
${row("Alamat", address)}
</table>
<p>${escapeHtml(jenis.statement)}</p>
${fieldRows ? `<table>${fieldRows}</table>` : ""}
<p>Surat ini dibuat untuk keperluan: <strong>${escapeHtml(letter.keperluan)}</strong>.</p>
${validity}
<p>Demikian surat ini dibuat agar dapat dipergunakan sebagaimana mestinya.</p>
<div class="foot">
  <div class="qr">${qrSvg(doc.verificationUrl)}<div>Pindai untuk memeriksa keaslian surat ini.</div></div>
  <div class="sign">
    <div>${escapeHtml(settings.kota ?? "")}${settings.kota ? ", " : ""}${escapeHtml(tanggal ? tanggalIndonesia(tanggal) : "")}</div>
    <div>${escapeHtml(headTitle)}</div>
    <div class="space"></div>
    <div><strong><u>${escapeHtml(settings.headName ?? "(.................................)")}</u></strong></div>
  </div>
</div>
</body></html>`;
}
