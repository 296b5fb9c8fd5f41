import type { ContentStatus } from "./tables";

interface Publishable {
  status: ContentStatus;
  version: number;
  notifiedVersion: number | null;
  publishedAt: string | null;
}

/**
 * How a write moves a news item or an announcement. A content change after a version was sent makes
 * a new version; whatever is published and not yet sent at its current version is owed a fan-out. So
 * publishing sends, a published edit sends again, a double click or an unpublish-republish without an
 * edit sends nothing, and edits to a draft never sent stay version 1.
 */
export function nextPublication(
  current: Publishable,
  status: ContentStatus | undefined,
  contentChanged: boolean,
  now: string,
) {
  const nextStatus = status ?? current.status;
  const version =
    contentChanged && current.notifiedVersion === current.version ? current.version + 1 : current.version;
  const publishedAt =
    nextStatus === "terbit" && current.status !== "terbit"
      ? (current.publishedAt ?? now)
      : current.publishedAt;
  return { status: nextStatus, version, publishedAt };
}

export const owesFanout = (row: Publishable): boolean =>
  row.status === "terbit" && row.notifiedVersion !== row.version;
