import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { IdParam, problems } from "../../../core/http/openapi";
import { letterPdf } from "../publish";

const schema = {
  tags: ["Surat"],
  summary: "Download a finished letter as PDF",
  description:
    "Community staff and the resident who requested it (another resident's letter is 404), with " +
    "`surat` on. The official A4 PDF with the letterhead, the subject's particulars, the signatory, a " +
    "verification QR and, once acknowledged, the RW's Mengetahui; rendered once per version and then " +
    "served from storage. 409 `letter_not_ready` until the letter is selesai with its number; 409 " +
    "`awaiting_rw_acknowledgement` to the resident while the linked RW has not acknowledged it (nor " +
    "the RT issued it without the RW); staff may read it meanwhile. 503 " +
    "`pdf_renderer_unavailable` when the renderer cannot be reached.",
  request: { params: IdParam },
  responses: {
    200: { description: "The letter", content: { "application/pdf": { schema: z.string() } } },
    ...problems(401, 403, 404, 409, 503),
  },
};

export class GetLetterPdf extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { params } = await this.getValidatedData<typeof this.schema>();
    const pdf = await letterPdf({ ctx: tenantCtx(c), id: params.id });
    const headers = new Headers(c.res.headers);
    headers.set("Content-Type", "application/pdf");
    headers.set("Content-Disposition", `inline; filename="${pdf.filename}"`);
    headers.set("Cache-Control", "private, no-store");
    // Rendered now or read from R2: lets clients and the benchmark tell the two apart.
    headers.set("X-Pdf-Source", pdf.source);
    return new Response(pdf.body, { status: 200, headers });
  }
}
