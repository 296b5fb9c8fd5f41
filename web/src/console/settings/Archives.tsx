import { useEffect, useState } from "preact/hooks";
import { api, saveBlob } from "../../api/client";
import { dateTime } from "../../format";
import { useLanguage } from "../../i18n";
import { FormError, useSubmit } from "../../ui/forms";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { DataTable, Progress } from "../ui";
import { tx } from "./text";

type ArchiveStatus = "queued" | "running" | "ready" | "failed" | "expired";

interface Archive {
  id: string;
  kind: "export" | "import";
  status: ArchiveStatus;
  bytes: number | null;
  summary: { tables: number; rows: number; files: number } | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  expiresAt: string | null;
}

const POLL_MS = 2000;
const working = (a: Archive) => a.status === "queued" || a.status === "running";

function size(bytes: number | null): string {
  if (bytes === null) {
    return "–";
  }
  if (bytes < 1024 * 1024) {
    return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  }
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/**
 * `/pengurus/pengaturan/arsip`: the community's archives (GET /api/archives). A new one is requested
 * (POST /api/archives: the API answers an export already under way instead of starting a second), built
 * in the background and followed here (GET /api/archives/:id) until it is ready to download.
 */
export function Archives() {
  useLanguage();
  const archives = usePaged<Archive>(
    (cursor) => api.get<Page<Archive>>("/api/archives", { query: { limit: 20, cursor } }),
    [],
  );
  const [following, setFollowing] = useState<Archive | null>(null);
  const request = useSubmit((key) =>
    api.post<{ archive: Archive; created: boolean }>("/api/archives", undefined, { idempotencyKey: key }),
  );
  const start = async () => {
    const answer = await request.submit();
    if (answer) {
      setFollowing(answer.archive);
    }
  };
  // An archive under way (just requested, or found in the list) is read again until it is done.
  const underWay = following ?? (archives.state === "ready" ? (archives.items.find(working) ?? null) : null);
  const followId = underWay && working(underWay) ? underWay.id : null;
  useEffect(() => {
    if (!followId) {
      return;
    }
    let live = true;
    const timer = setInterval(() => {
      api.get<Archive>(`/api/archives/${encodeURIComponent(followId)}`).then(
        (a) => {
          if (!live) {
            return;
          }
          setFollowing(a);
          if (!working(a) && archives.state === "ready") {
            archives.reload();
          }
        },
        () => undefined,
      );
    }, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [followId]);

  return (
    <section aria-labelledby="ar-title" class="set">
      <p>
        <a href="/pengurus/pengaturan">{tx("back")}</a>
      </p>
      <h1 id="ar-title">{tx("archives")}</h1>
      <div class="card">
        <p>{tx("exportLead")}</p>
        {followId ? (
          <Progress label={`${tx("building")}: ${tx(`ar_${underWay?.status ?? "queued"}`)}`} />
        ) : (
          <button type="button" class="primary" onClick={start} disabled={request.busy}>
            {tx("exportNow")}
          </button>
        )}
        <FormError error={request.error} />
      </div>
      <ShowPaged paged={archives} empty={tx("noArchives")}>
        {(rows) => (
          <DataTable
            caption={tx("archives")}
            rowKey={(a) => a.id}
            rows={rows.map((a) => (following && a.id === following.id ? following : a))}
            columns={[
              { label: tx("created"), cell: (a) => dateTime(a.createdAt) },
              {
                label: tx("status"),
                cell: (a) => (
                  <span>
                    <span class={`badge set-ar-${a.status}`}>{tx(`ar_${a.status}`)}</span>
                    {a.error && <span class="muted"> {a.error}</span>}
                  </span>
                ),
              },
              { label: tx("size"), numeric: true, cell: (a) => size(a.bytes) },
              {
                label: tx("contents"),
                cell: (a) => (a.summary ? tx("contentsValue", a.summary) : "–"),
              },
              {
                label: tx("download"),
                cell: (a) => (a.status === "ready" && a.kind === "export" ? <Download archive={a} /> : "–"),
              },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}

function Download({ archive }: { archive: Archive }) {
  const get = useSubmit(async () => {
    const blob = await api.blob(`/api/archives/${encodeURIComponent(archive.id)}/download`);
    saveBlob(blob, `arsip-${archive.createdAt.slice(0, 10)}.zip`);
    return true;
  });
  return (
    <span class="set-download">
      <button
        type="button"
        onClick={() => get.submit()}
        disabled={get.busy}
        aria-label={tx("downloadLabel", { date: dateTime(archive.createdAt) })}
      >
        {tx("download")}
      </button>
      {archive.expiresAt && (
        <span class="muted">{tx("expiresAt", { date: dateTime(archive.expiresAt) })}</span>
      )}
      <FormError error={get.error} />
    </span>
  );
}
