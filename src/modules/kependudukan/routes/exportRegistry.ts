import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { problems } from "../../../core/http/openapi";
import { jakartaDay } from "../../../core/time";
import { CSV_TYPE, XLSX_TYPE } from "../../../platform/spreadsheets";
import { exportRegistry } from "../exchange";
import { ExportQuery } from "../schemas";

const schema = {
  tags: ["Kependudukan"],
  summary: "Export the registry",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. The whole registry as a " +
    "spreadsheet: xlsx with the sheets KK, Anggota, Kendaraan and Unit, or csv (the members, UTF-8 " +
    "with BOM, for Excel: NIK and KK numbers are quoted behind a tab so Excel keeps them as text, " +
    "dates are YYYY-MM-DD; other spreadsheet programs open the xlsx as meant). The export is what " +
    "the import reads back.",
  request: { query: ExportQuery },
  responses: {
    200: {
      description: "The spreadsheet, as an attachment",
      content: {
        [XLSX_TYPE]: { schema: z.string().describe("binary .xlsx") },
        "text/csv": { schema: z.string() },
      },
    },
    ...problems(400, 401, 403),
  },
};

export class ExportRegistry extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    const ctx = tenantCtx(c);
    const { body } = await exportRegistry({ ctx, format: query.format });
    const name = `kependudukan-${ctx.tenant.slug}-${jakartaDay(ctx.now())}.${query.format}`;
    return new Response(body, {
      headers: {
        "Content-Type": query.format === "csv" ? CSV_TYPE : XLSX_TYPE,
        "Content-Disposition": `attachment; filename="${name}"`,
        "Cache-Control": "no-store",
      },
    });
  }
}
