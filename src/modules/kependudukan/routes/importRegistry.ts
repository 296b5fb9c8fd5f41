import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../../core/env";
import { Invalid, TooLarge } from "../../../core/errors";
import { checkMultipart, readForm } from "../../../core/files";
import { tenantCtx } from "../../../core/http/access";
import { Endpoint } from "../../../core/http/endpoint";
import { binaryPart, json, problems } from "../../../core/http/openapi";
import { looksLikeXlsx } from "../../../platform/spreadsheets";
import { importRegistry, readRegistryFile } from "../exchange";
import { ImportQuery, ImportReport } from "../schemas";

/** The spec's limit for a registry upload. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

const schema = {
  tags: ["Kependudukan"],
  summary: "Import a registry spreadsheet",
  description:
    "Secretary and admin, with the registry (`warga`) switched on. A multipart upload (`file`): an " +
    ".xlsx as the export writes it, or a CSV of the Anggota sheet. Every row is checked by the rules " +
    "of the API (NIK rules, enums, dates, uniqueness in the file and in the community), and every " +
    "problem found is answered with its sheet, row and field. With `dryRun=false` and no problem, " +
    "units, cards, members and vehicles are written in one batch, all or nothing. 400 " +
    "`invalid_spreadsheet`, `file_missing` or `file_empty`; 413 `file_too_large`; 409 `nik_taken`, " +
    "`kk_number_taken` or `plate_taken` when another write took a value meanwhile. Audited.",
  request: {
    query: ImportQuery,
    body: {
      content: {
        "multipart/form-data": {
          schema: z.object({ file: binaryPart(".xlsx or .csv, at most 5 MB") }),
        },
      },
    },
  },
  responses: { 200: json(ImportReport, "The per-row report"), ...problems(400, 401, 403, 409, 413, 415) },
};

export class ImportRegistry extends Endpoint {
  override schema = schema;

  override async handle(c: Context<RouteEnv>) {
    const { query } = await this.getValidatedData<typeof this.schema>();
    checkMultipart(c.req.raw, MAX_IMPORT_BYTES);
    const file = (await readForm(c.req.raw)).get("file");
    if (file === null || typeof file === "string") {
      throw new Invalid("file_missing", "The spreadsheet goes in the multipart field `file`.", [
        { field: "file", message: "required" },
      ]);
    }
    if (file.size > MAX_IMPORT_BYTES) {
      throw new TooLarge(`A spreadsheet may be at most ${MAX_IMPORT_BYTES} bytes.`, "file_too_large");
    }
    if (file.size === 0) {
      throw new Invalid("file_empty", "The file is empty.", [{ field: "file", message: "empty" }]);
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const tables = readRegistryFile(bytes, looksLikeXlsx(bytes) ? "xlsx" : "csv");
    return c.json(await importRegistry({ ctx: tenantCtx(c), tables, dryRun: query.dryRun }));
  }
}
