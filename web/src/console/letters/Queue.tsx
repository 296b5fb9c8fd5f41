import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { date } from "../../format";
import { useLanguage } from "../../i18n";
import type { Jenis } from "../../screens/surat/types";
import { Select } from "../../ui/forms";
import { type Page, ShowPaged, usePaged, useResource } from "../../ui/states";
import { DataTable } from "../ui";
import { lx } from "./text";
import { QUEUE_STATUSES, type StaffLetter } from "./types";

type QueueStatus = (typeof QUEUE_STATUSES)[number];

/** `/pengurus/surat?status=…&jenis=…`: the queue, one status at a time (the filter stays in the address). */
export function LetterQueue() {
  useLanguage();
  const { query, route } = useLocation();
  const status = (QUEUE_STATUSES as readonly string[]).includes(query.status ?? "")
    ? (query.status as QueueStatus)
    : "diajukan";
  const jenis = query.jenis ?? "";
  const types = useResource(() => api.get<{ items: Jenis[] }>("/api/surat/jenis"));
  const letters = usePaged(
    (cursor) =>
      api.get<Page<StaffLetter>>("/api/surat", {
        query: { status, jenis: jenis || undefined, limit: 20, cursor },
      }),
    [status, jenis],
  );
  const href = (s: string, j = jenis) => `/pengurus/surat?status=${s}${j ? `&jenis=${j}` : ""}`;
  return (
    <section aria-labelledby="letters-title" class="letters">
      <h1 id="letters-title">{lx("queue")}</h1>
      <p>
        <a href="/pengurus/surat/pengaturan">{lx("settingsLink")}</a>
      </p>
      <nav aria-label={lx("statusFilter")} class="letters-tabs">
        <ul>
          {QUEUE_STATUSES.map((s) => (
            <li key={s}>
              <a href={href(s)} aria-current={s === status ? "page" : undefined}>
                {lx(s)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="filters">
        <Select
          label={lx("jenisFilter")}
          name="jenis"
          value={jenis}
          onInput={(j) => route(href(status, j))}
          options={[
            { value: "", label: lx("allJenis") },
            ...(types.state === "ready"
              ? types.data.items.map((j) => ({ value: j.code, label: j.name }))
              : []),
          ]}
        />
      </div>
      <ShowPaged paged={letters} empty={lx("empty")} lines={6}>
        {(items) => (
          <DataTable
            caption={`${lx("queue")}: ${lx(status)}`}
            rowKey={(l) => l.id}
            rows={items}
            columns={[
              {
                label: lx("colJenis"),
                cell: (l) => <a href={`/pengurus/surat/${l.id}`}>{l.jenisName}</a>,
              },
              { label: lx("colSubject"), cell: (l) => l.subjectName },
              { label: lx("colRequester"), cell: (l) => l.residentName ?? "—" },
              { label: lx("colDate"), cell: (l) => date(l.createdAt) },
              {
                label: lx("colStatus"),
                cell: (l) => (
                  <span class={`badge badge-${l.status}`}>
                    {l.awaitingRw ? lx("awaitingRw") : lx(l.status)}
                  </span>
                ),
              },
              { label: lx("colNumber"), cell: (l) => l.nomorSurat ?? "—" },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}
