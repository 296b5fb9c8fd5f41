import { api } from "../../api/client";
import { date, dateTime } from "../../format";
import { type MessageKey, t } from "../../i18n";
import { AuthImage } from "../../ui/AuthImage";
import { Show, useResource } from "../../ui/states";
import type { Complaint } from "./types";

/** `/aspirasi/pengaduan/:id`: the complaint as sent, its photo, and the staff's replies over time. */
export function ComplaintDetail({ params }: { params: { id: string } }) {
  const complaint = useResource(() => api.get<Complaint>(`/api/pengaduan/${params.id}`), [params.id]);
  return (
    <section aria-labelledby="complaint-detail-title">
      <p>
        <a href="/aspirasi">{t("aspirasi.back")}</a>
      </p>
      <Show resource={complaint} lines={6}>
        {(c) => (
          <>
            <h1 id="complaint-detail-title">{c.title}</h1>
            <p>
              <span class={`badge badge-${c.status}`}>{t(`aspirasi.status.${c.status}` as MessageKey)}</span>{" "}
              <span class="muted">
                {t(`aspirasi.category.${c.category}` as MessageKey)} · {date(c.createdAt)}
              </span>
            </p>
            <div class="card">
              <p class="prewrap">{c.description}</p>
              {c.location && <p class="muted">{t("aspirasi.at", { location: c.location })}</p>}
              {c.photo && (
                <AuthImage
                  src={c.photo}
                  alt={t("aspirasi.photoOf", { title: c.title })}
                  width={4}
                  height={3}
                  class="photo-wide"
                />
              )}
            </div>
            <h2 id="complaint-thread">{t("aspirasi.thread")}</h2>
            <ol class="timeline" aria-labelledby="complaint-thread">
              {(c.thread ?? []).map((m, i) => (
                <li key={`${m.createdAt}-${i}`}>
                  <strong>
                    {m.byStaff ? t("aspirasi.byStaff") : t("aspirasi.byMe")}
                    {m.status && ` · ${t(`aspirasi.status.${m.status}` as MessageKey)}`}
                  </strong>
                  <span class="muted">{dateTime(m.createdAt)}</span>
                  {m.body && <p class="prewrap">{m.body}</p>}
                </li>
              ))}
            </ol>
          </>
        )}
      </Show>
    </section>
  );
}
