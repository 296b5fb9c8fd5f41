import QRCode from "qrcode-svg";
import { rupiah } from "../../core/format";
import { escapeHtml } from "../../core/html";
import { dayPlus, tanggalIndonesia } from "./dates";
import { rtRwLine, villageLine } from "./identity";
import { IDENTITY_LABELS, type IdentityField, type JenisDef } from "./jenis";
import type { LetterRow } from "./letters";
import type { IssuedAs } from "./tables";

/** The letter as one self-contained HTML page (no network, no script): what Browser Rendering prints. */

export { tanggalIndonesia } from "./dates";

/** The RW's "Mengetahui" block, once the RW has acknowledged the letter. */
export interface RwAcknowledgement {
  name: string;
  title: string;
  /** YYYY-MM-DD, Asia/Jakarta. */
  day: string;
}

export interface LetterDocument {
  issuedAs: IssuedAs;
  jenis: JenisDef;
  letter: LetterRow;
  /** Every particular's printed value (identity.ts); the type's `identity` says which are printed. */
  identity: Record<IdentityField, string>;
  memberNames: Map<string, string>;
  verificationUrl: string;
  rwAcknowledgement: RwAcknowledgement | null;
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

/** The kop: the administrative chain from the RT up to the province, the address and the logo. */
function letterhead(s: IssuedAs): string {
  const logo = s.logoDataUrl ? `<img class="logo" src="${escapeHtml(s.logoDataUrl)}" alt="">` : "";
  return `<header>${logo}<div class="kop">
  <div class="org">Pengurus ${escapeHtml(rtRwLine(s))}</div>
  <div class="chain">${escapeHtml(villageLine(s))} &ndash; Kecamatan ${escapeHtml(s.kecamatan)}</div>
  <div class="chain">${escapeHtml(s.kota)} &ndash; Provinsi ${escapeHtml(s.provinsi)}</div>
  ${s.address ? `<div class="addr">${escapeHtml(s.address)}</div>` : ""}
</div></header>`;
}

/** "Kabupaten Bogor" → "Bogor": where the letter is signed. */
const placeOf = (kota: string) => kota.replace(/^(kota|kabupaten|kab\.)\s+/i, "");

function qrSvg(url: string): string {
  return new QRCode({ content: url, ecl: "M", join: true, container: "svg-viewbox", padding: 0 }).svg();
}

function signature(heading: string, title: string, name: string): string {
  return `<div class="sign">
    <div>${escapeHtml(heading)}</div>
    <div>${escapeHtml(title)}</div>
    <div class="space"></div>
    <div class="name"><strong><u>${escapeHtml(name)}</u></strong></div>
  </div>`;
}

export function letterHtml(doc: LetterDocument): string {
  const { letter, jenis, issuedAs: s } = doc;
  const tanggal = letter.tanggalSurat ?? "";
  const fields = letter.fields;
  const validity =
    jenis.validityDays && tanggal
      ? `<p>Surat keterangan ini berlaku sampai dengan tanggal ${escapeHtml(tanggalIndonesia(dayPlus(tanggal, jenis.validityDays)))}.</p>`
      : "";
  const identityRows = jenis.identity.map((name) => row(IDENTITY_LABELS[name], doc.identity[name])).join("");
  const fieldRows = jenis.fields.map((f) => row(f.label, fieldValue(doc, f.name, fields[f.name]))).join("");
  const ack = doc.rwAcknowledgement;
  const rtSign = signature(
    `${placeOf(s.kota)}, ${tanggal ? tanggalIndonesia(tanggal) : ""}`,
    s.headTitle,
    s.headName,
  );
  const rwSign = ack ? signature(`Mengetahui, ${tanggalIndonesia(ack.day)}`, ack.title, ack.name) : "";
  return `<!doctype html>
<html lang="id"><head><meta charset="utf-8"><title>${escapeHtml(letter.nomorSurat ?? "")}</title>
<style>
  @page { size: A4; }
  body { font-family: "Liberation Serif", "Times New Roman", serif; font-size: 12pt; color: #000; line-height: 1.4; }
  header { display: flex; align-items: center; border-bottom: 3px double #000; padding-bottom: 8px; }
  .logo { width: 72px; height: 72px; object-fit: contain; margin-right: 16px; }
  .kop { flex: 1; text-align: center; text-transform: uppercase; }
  .org { font-size: 15pt; font-weight: bold; }
  .chain { font-size: 12pt; font-weight: bold; }
  .addr { font-size: 10.5pt; text-transform: none; }
  h1 { font-size: 13pt; text-align: center; text-decoration: underline; margin: 18px 0 0; }
  .nomor { text-align: center; margin: 2px 0 14px; }
  table { border-collapse: collapse; margin: 4px 0 8px 24px; }
  td { vertical-align: top; padding: 1px 4px; }
  td.l { width: 190px; } td.c { width: 8px; }
  .signs { display: flex; justify-content: space-between; margin-top: 22px; }
  .sign { text-align: center; width: 260px; }
  .signs .sign:only-child { margin-left: auto; }
  .space { height: 64px; }
  .qr { margin-top: 14px; width: 110px; font-size: 8pt; }
  .qr svg { width: 90px; height: 90px; }
</style></head>
<body>
${letterhead(s)}
<h1>${escapeHtml(jenis.name.toUpperCase())}</h1>
<div class="nomor">Nomor: ${escapeHtml(letter.nomorSurat ?? "")}</div>
<p>Yang bertanda tangan di bawah ini, ${escapeHtml(s.headTitle)}, ${escapeHtml(villageLine(s))}, Kecamatan ${escapeHtml(s.kecamatan)}, ${escapeHtml(s.kota)}, menerangkan bahwa:</p>
<table>${identityRows}</table>
<p>${escapeHtml(jenis.statement)}</p>
${fieldRows ? `<table>${fieldRows}</table>` : ""}
<p>Surat ini dibuat untuk keperluan: <strong>${escapeHtml(letter.keperluan)}</strong>.</p>
${validity}
<p>Demikian surat ini dibuat agar dapat dipergunakan sebagaimana mestinya.</p>
<div class="signs">${rwSign}${rtSign}</div>
<div class="qr">${qrSvg(doc.verificationUrl)}<div>Pindai untuk memeriksa keaslian surat ini.</div></div>
</body></html>`;
}
