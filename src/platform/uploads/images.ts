import type { TenantCtx } from "../../core/context";
import { Unprocessable } from "../../core/errors";
import type { FilePurpose } from "./purposes";
import { tenantFilesByIds } from "./store";

const FILE_PATH = /^\/api\/files\/([0-9A-Za-z]{1,64})$/;

/**
 * The id of the stored file a URL names when it is this API's file route, `${APP_URL}/api/files/:id`
 * (what `POST /api/files` answers) or that path alone; null for anything else: another host, a
 * protocol-relative `//host/…`, a query, a fragment, a path that only ends like ours.
 */
export function ownFileIdOf(appUrl: string, url: string): string | null {
  const text = url.trim();
  const base = appUrl.replace(/\/+$/, "");
  const path = text.startsWith(`${base}/`) ? text.slice(base.length) : text;
  return FILE_PATH.exec(path)?.[1] ?? null;
}

/**
 * Images shown to others (a complaint's photo, pictures in news and announcements) come only from this
 * community's own store (issue 31): a third-party URL would tell its host who opened the page, when and
 * from where, and could change after it was checked. Each URL must name a file of this tenant with one
 * of `purposes` (uploaded by `ownedBy`, when given), else 422 `foreign_image` on `field`, listing every
 * refused URL; an author expects to be told, not to find the picture silently gone. The ids, in order.
 */
export async function requireOwnImages(
  ctx: TenantCtx,
  urls: readonly string[],
  options: { field: string; purposes: readonly FilePurpose[]; ownedBy?: string },
): Promise<string[]> {
  const ids = urls.map((url) => ownFileIdOf(ctx.config.APP_URL, url));
  const files = await tenantFilesByIds(
    ctx,
    ids.filter((id): id is string => id !== null),
  );
  const refused = urls.filter((_, i) => {
    const file = files.get(ids[i] ?? "");
    return (
      !file ||
      !options.purposes.includes(file.purpose) ||
      (options.ownedBy !== undefined && file.uploadedBy !== options.ownedBy)
    );
  });
  if (refused.length > 0) {
    throw new Unprocessable(
      "foreign_image",
      `Images must be uploaded to this community first (POST /api/files, purpose ${options.purposes.join(" or ")}).`,
      refused.map((url) => ({
        field: options.field,
        message: `not an upload of this community: ${url.slice(0, 200)}`,
      })),
    );
  }
  return ids as string[];
}
