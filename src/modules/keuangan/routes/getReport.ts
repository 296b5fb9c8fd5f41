import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { XLSX_TYPE } from "../../../platform/spreadsheets";
import { financeReport, reportPdf, reportXlsx } from "../laporan/report";
import { FinanceReport, ReportQuery } from "../schemas";

const schema = {
  tags: ["Laporan"],
  summary: "Get the month's finance report",
  description:
    "Community staff (sekretaris, bendahara, admin). The month's report: opening and closing " +
    "balances, income and spending by category, dues billed against collected, and arrears; it names " +
    "no payer or donor. As JSON, or `format=pdf` (rendered once per version of the figures, then " +
    "served from storage; 503 `pdf_renderer_unavailable` when the renderer cannot be reached) or " +
    "`format=xlsx`.",
  request: { query: ReportQuery },
  responses: {
    200: {
      description: "The report",
      content: {
        "application/json": { schema: FinanceReport },
        "application/pdf": { schema: z.string() },
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": { schema: z.string() },
      },
    },
    ...problems(400, 401, 403, 503),
  },
};

export class GetReport extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    const ctx = tenantCtx(c);
    if (query.format === "json") {
      return c.json(await financeReport({ ctx, month: query.bulan }));
    }
    if (query.format === "xlsx") {
      const book = await reportXlsx({ ctx, month: query.bulan });
      const headers = new Headers(c.res.headers);
      headers.set("Content-Type", XLSX_TYPE);
      headers.set("Content-Disposition", `attachment; filename="${book.filename}"`);
      headers.set("Cache-Control", "private, no-store");
      return new Response(book.body, { status: 200, headers });
    }
    const pdf = await reportPdf({ ctx, month: query.bulan });
    const headers = new Headers(c.res.headers);
    headers.set("Content-Type", "application/pdf");
    headers.set("Content-Disposition", `inline; filename="${pdf.filename}"`);
    headers.set("Cache-Control", "private, no-store");
    headers.set("X-Pdf-Source", pdf.source);
    return new Response(pdf.body, { status: 200, headers });
  }
}
