import type { TenantCtx } from "../../core/context";

/** The resident's community: their own staff's context, or the RT's as the RW acknowledges in it. */
type Notifying = Pick<TenantCtx, "env" | "platform" | "requestId" | "tenant" | "config">;

import { escapeHtml } from "../../core/html";
import { tellResident } from "../../platform/notify";
import { jenisOf } from "./jenis";
import type { LetterRow } from "./letters";

function message(ctx: Notifying, row: LetterRow): { subject: string; text: string } {
  const jenis = jenisOf(row.jenis).name;
  if (row.status === "selesai" && row.rwAckStatus === "diketahui") {
    return {
      subject: `${jenis} Anda sudah diketahui RW`,
      text: `${jenis} nomor ${row.nomorSurat} untuk ${row.subjectName} sudah diketahui ${row.rwAckTitle} (${row.rwAckName}). Unduh PDF terbarunya dari aplikasi Warga.`,
    };
  }
  const note = row.note ? `\nCatatan pengurus: ${row.note}` : "";
  switch (row.status) {
    case "selesai":
      // Not "ready" while the RW has not acknowledged it (issue 45): the PDF is not offered yet.
      return row.rwAckStatus === "menunggu"
        ? {
            subject: `${jenis} Anda menunggu persetujuan RW`,
            text: `${jenis} untuk ${row.subjectName} sudah selesai dengan nomor ${row.nomorSurat} dan menunggu diketahui Ketua RW. Anda akan diberi tahu begitu RW menandatanganinya; PDF-nya dapat diunduh setelah itu.`,
          }
        : {
            subject: `${jenis} Anda sudah selesai`,
            text: `${jenis} untuk ${row.subjectName} sudah selesai dengan nomor ${row.nomorSurat}. Unduh PDF-nya dari aplikasi Warga.`,
          };
    case "ditolak":
      return {
        subject: `${jenis} Anda ditolak`,
        text: `Permohonan ${jenis} untuk ${row.subjectName} ditolak oleh pengurus ${ctx.tenant.name}.${note}`,
      };
    default:
      return {
        subject: `${jenis} Anda perlu diperbaiki`,
        text: `Permohonan ${jenis} untuk ${row.subjectName} perlu diperbaiki sebelum diproses.${note}\nPerbaiki dan ajukan ulang dari aplikasi Warga.`,
      };
  }
}

/**
 * Tells the resident (email, or WhatsApp when they have no email). The status change is already
 * stored: a notification service that is down is logged, never turned into a failed request.
 * The idempotency key names the history event, so a retry never sends the same news twice.
 */
export async function notifyLetterStatus(ctx: Notifying, row: LetterRow, eventId: string): Promise<void> {
  const { subject, text } = message(ctx, row);
  const link = `${ctx.config.APP_URL.replace(/\/$/, "")}/surat/${row.id}`;
  await tellResident(ctx, row.residentId, {
    subject,
    text: `${text}\n\n${link}`,
    html: `<p>${escapeHtml(text).replace(/\n/g, "<br>")}</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>`,
    idempotencyKey: `surat:${ctx.tenant.slug}:${row.id}:${eventId}`,
  });
}
