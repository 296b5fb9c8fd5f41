import type { Context } from "hono";
import { z } from "zod";
import type { RouteEnv } from "../../core/env";
import { problems } from "../../core/http/openapi";

/** The answers of both archive downloads (a community's own and the operator's). */
export const archiveDownloadResponses = {
  200: { description: "The archive", content: { "application/zip": { schema: z.string() } } },
  ...problems(401, 403, 404, 409, 410),
};

/** Streams a stored archive as a private, uncached ZIP download. */
export function zipResponse(
  c: Context<RouteEnv>,
  file: { body: ReadableStream; size: number; sha256: string | null; filename: string },
) {
  const headers = new Headers(c.res.headers);
  headers.set("Content-Type", "application/zip");
  headers.set("Content-Length", String(file.size));
  headers.set("Content-Disposition", `attachment; filename="${file.filename}"`);
  headers.set("Cache-Control", "private, no-store");
  if (file.sha256) {
    headers.set("X-Archive-Sha256", file.sha256);
  }
  return new Response(file.body, { status: 200, headers });
}
