import { useEffect, useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api, saveBlob } from "../../api/client";
import { Confirm, DataTable, Progress } from "../../console/ui";
import { dateTime } from "../../format";
import { useLanguage } from "../../i18n";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";
import { problemText } from "../../ui/problem";
import { Failed, ShowPaged, usePaged, useResource } from "../../ui/states";
import type { Community } from "./shared";
import { opx } from "./text";

interface Archive {
  id: string;
  kind: "export" | "import";
  status: "queued" | "running" | "ready" | "failed" | "expired";
  bytes: number | null;
  error: string | null;
  createdAt: string;
  expiresAt: string | null;
  downloadUrl: string | null;
}
interface Erasure {
  id: string;
  userId: string;
  reference: string;
  erasedAt: string;
  operatorId: string | null;
}

const POLL_MS = 1500;

/**
 * `/platform/operations/communities/:id`: one community's personal-data erasures (a form behind a
 * confirmation that names what goes, and the past ones) and its archives (export with progress until
 * ready, download, import into an empty community behind a confirmation).
 */
export function CommunityOps() {
  useLanguage();
  const id = useRoute().params.id ?? "";
  // The one community by its id (404 for an unknown one), not the first page of all of them.
  const community = useResource(
    () => api.get<Community>(`/api/platform/tenants/${encodeURIComponent(id)}`),
    [id],
  );
  const name = community.state === "ready" ? community.data.name : id;
  return (
    <section aria-labelledby="ops-community-title">
      <p>
        <a href="/platform/operations">{opx("backOps")}</a>
      </p>
      <h1 id="ops-community-title">{opx("communityTitle", { name })}</h1>
      {community.state === "error" && <Failed error={community.error} retry={community.retry} />}
      <Archives id={id} name={name} />
      <Erasures id={id} name={name} />
    </section>
  );
}

function Archives({ id, name }: { id: string; name: string }) {
  const [tick, setTick] = useState(0);
  const paged = usePaged<Archive>(
    (cursor) =>
      api.get<{ items: Archive[]; nextCursor: string | null }>(`/api/platform/tenants/${id}/archives`, {
        query: { limit: 20, cursor },
      }),
    [id, tick],
  );
  const [watching, setWatching] = useState<Archive | null>(null);
  const exporting = useSubmit((key) =>
    api.post<{ archive: Archive }>(`/api/platform/tenants/${id}/archives`, undefined, {
      idempotencyKey: key,
    }),
  );
  const startExport = async () => {
    const answer = await exporting.submit();
    if (answer) {
      setWatching(answer.archive);
    }
  };
  // Until the background build is done: asked again every moment, shown as progress.
  useEffect(() => {
    if (!watching || watching.status === "ready" || watching.status === "failed") {
      return;
    }
    const timer = setTimeout(async () => {
      try {
        setWatching(await api.get<Archive>(`/api/platform/archives/${watching.id}`));
      } catch {
        setWatching({ ...watching });
      }
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [watching]);
  useEffect(() => {
    if (watching?.status === "ready" || watching?.status === "failed") {
      setTick((n) => n + 1);
    }
  }, [watching?.status]);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const download = async (a: Archive) => {
    setDownloadError(null);
    try {
      saveBlob(
        // The route on this origin: the answer's downloadUrl is absolute on the API's configured
        // APP_URL, which need not be the origin this page was loaded from (a local server's port).
        await api.blob(`/api/platform/archives/${encodeURIComponent(a.id)}/download`),
        `arsip-${a.id}.zip`,
      );
    } catch (error) {
      setDownloadError(error);
    }
  };
  return (
    <>
      <h2>{opx("archives")}</h2>
      <p class="muted">{opx("archivesHint")}</p>
      <div class="actions">
        <button type="button" class="primary" onClick={startExport} disabled={exporting.busy}>
          {opx("exportNow")}
        </button>
      </div>
      <FormError error={exporting.error} />
      {watching && (watching.status === "queued" || watching.status === "running") && (
        <Progress label={opx("exporting")} />
      )}
      {watching?.status === "ready" && (
        <p class="card" role="status">
          {opx("exportReady")}
        </p>
      )}
      {watching?.status === "failed" && (
        <p class="alert" role="alert">
          {opx("exportFailed", { error: watching.error ?? "" })}
        </p>
      )}
      {downloadError ? (
        <p class="alert" role="alert">
          {problemText(downloadError)}
        </p>
      ) : null}
      <ShowPaged paged={paged} empty={opx("noArchives")} lines={3}>
        {(items) => (
          <DataTable
            caption={opx("archives")}
            rowKey={(a) => a.id}
            rows={items}
            columns={[
              { label: opx("at"), cell: (a) => dateTime(a.createdAt) },
              { label: opx("kind"), cell: (a) => opx(`k_${a.kind}`) },
              { label: opx("status"), cell: (a) => opx(`a_${a.status}`) },
              {
                label: opx("size"),
                cell: (a) => (a.bytes === null ? opx("none") : `${Math.ceil(a.bytes / 1024)} KB`),
                numeric: true,
              },
              { label: opx("expires"), cell: (a) => (a.expiresAt ? dateTime(a.expiresAt) : opx("none")) },
              {
                label: opx("download"),
                cell: (a) =>
                  a.downloadUrl ? (
                    <button
                      type="button"
                      onClick={() => download(a)}
                      aria-label={`${opx("download")} ${a.id}`}
                    >
                      {opx("download")}
                    </button>
                  ) : (
                    <code>{a.id}</code>
                  ),
              },
            ]}
          />
        )}
      </ShowPaged>
      <ImportForm id={id} name={name} onDone={() => setTick((n) => n + 1)} />
    </>
  );
}

function ImportForm({ id, name, onDone }: { id: string; name: string; onDone: () => void }) {
  const [archiveId, setArchiveId] = useState("");
  const [asking, setAsking] = useState(false);
  const [missing, setMissing] = useState(false);
  const [done, setDone] = useState<{ rows: number; tables: number } | null>(null);
  // From an export this platform holds; an uploaded ZIP (the route's other source) is not offered here yet.
  const importing = useSubmit((key) =>
    api.post<{ report: { rows: number; tables: Record<string, number> } }>(
      `/api/platform/tenants/${id}/imports`,
      undefined,
      { query: { archiveId: archiveId.trim() }, idempotencyKey: key },
    ),
  );
  const ask = (e: Event) => {
    e.preventDefault();
    setDone(null);
    const has = archiveId.trim() !== "";
    setMissing(!has);
    setAsking(has);
  };
  const confirm = async () => {
    const answer = await importing.submit();
    if (answer) {
      setAsking(false);
      setDone({ rows: answer.report.rows, tables: Object.keys(answer.report.tables).length });
      onDone();
    }
  };
  return (
    <form class="card" onSubmit={ask}>
      <h3>{opx("importTitle")}</h3>
      <p class="muted">{opx("importHint")}</p>
      <Field label={opx("archiveId")} name="archiveId" value={archiveId} onInput={setArchiveId} />
      {missing && (
        <p class="alert" role="alert">
          {opx("importNeedsSource")}
        </p>
      )}
      {!asking && <FormError error={importing.error} />}
      {done && (
        <p class="card" role="status">
          {opx("imported", done)}
        </p>
      )}
      <Submit busy={importing.busy}>{opx("importNow")}</Submit>
      <Confirm
        open={asking}
        title={opx("importConfirmTitle", { name })}
        confirmLabel={opx("importConfirm")}
        danger
        busy={importing.busy}
        error={importing.error}
        onConfirm={confirm}
        onCancel={() => setAsking(false)}
      >
        <p>{opx("importConfirmBody", { name })}</p>
      </Confirm>
    </form>
  );
}

function Erasures({ id, name }: { id: string; name: string }) {
  const [userId, setUserId] = useState("");
  const [asking, setAsking] = useState(false);
  const [tick, setTick] = useState(0);
  const [done, setDone] = useState<{ reference: string; rows: number } | null>(null);
  const past = usePaged<Erasure>(
    (cursor) =>
      api.get<{ items: Erasure[]; nextCursor: string | null }>(`/api/platform/tenants/${id}/erasures`, {
        query: { limit: 20, cursor },
      }),
    [id, tick],
  );
  const erasing = useSubmit((key) =>
    api.post<{ reference: string; rows: Record<string, number> }>(
      `/api/platform/tenants/${id}/erasures`,
      { userId: userId.trim() },
      { idempotencyKey: key },
    ),
  );
  const confirm = async () => {
    const answer = await erasing.submit();
    if (answer) {
      setAsking(false);
      setDone({ reference: answer.reference, rows: Object.values(answer.rows).reduce((a, b) => a + b, 0) });
      setUserId("");
      setTick((n) => n + 1);
    }
  };
  return (
    <>
      <h2>{opx("erasure")}</h2>
      <p class="muted">{opx("erasureHint")}</p>
      <form
        class="card"
        onSubmit={(e) => {
          e.preventDefault();
          setDone(null);
          setAsking(true);
        }}
      >
        <Field
          label={opx("userId")}
          name="userId"
          value={userId}
          onInput={setUserId}
          required
          error={erasing.fields.userId}
        />
        {!asking && <FormError error={erasing.error} />}
        {done && (
          <p class="card" role="status">
            {opx("erased", { reference: done.reference, rows: done.rows })}
          </p>
        )}
        <button type="submit" class="danger">
          {opx("erase")}
        </button>
        <Confirm
          open={asking}
          title={opx("eraseTitle", { user: userId.trim(), name })}
          confirmLabel={opx("eraseConfirm")}
          danger
          busy={erasing.busy}
          error={erasing.error}
          onConfirm={confirm}
          onCancel={() => setAsking(false)}
        >
          <p>{opx("eraseBody", { name })}</p>
        </Confirm>
      </form>
      <h3>{opx("pastErasures")}</h3>
      <ShowPaged paged={past} empty={opx("noErasures")} lines={2}>
        {(items) => (
          <DataTable
            caption={opx("pastErasures")}
            rowKey={(e) => e.id}
            rows={items}
            columns={[
              { label: opx("erasedAt"), cell: (e) => dateTime(e.erasedAt) },
              { label: opx("userId"), cell: (e) => <code>{e.userId}</code> },
              { label: opx("reference"), cell: (e) => <code>{e.reference}</code> },
            ]}
          />
        )}
      </ShowPaged>
    </>
  );
}
