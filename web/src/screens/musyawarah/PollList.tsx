import { api } from "../../api/client";
import { dateTime } from "../../format";
import { t, useLanguage } from "../../i18n";
import { ShowPaged, usePaged } from "../../ui/states";
import { type Poll, phaseOf } from "./types";

/** `/musyawarah`: the polls open for voting (residents see only those, as the API rules), newest first. */
export function PollList() {
  useLanguage();
  const polls = usePaged((cursor) =>
    api.get<{ items: Poll[]; nextCursor?: string | null }>("/api/musyawarah", {
      query: { status: "aktif", limit: 20, cursor },
    }),
  );
  return (
    <section aria-labelledby="musyawarah-title">
      <h1 id="musyawarah-title">{t("nav.musyawarah")}</h1>
      <p class="muted">{t("musyawarah.intro")}</p>
      <ShowPaged paged={polls} empty={t("musyawarah.none")} lines={4}>
        {(items) => (
          <ul class="poll-list">
            {items.map((p) => (
              <li key={p.id} class="card">
                <h2>
                  <a href={`/musyawarah/${p.id}`}>{p.title}</a>
                </h2>
                <p class="muted">{when(p)}</p>
                {p.hasVoted !== undefined && (
                  <span class={p.hasVoted ? "badge badge-selesai" : "badge"}>
                    {p.hasVoted ? t("musyawarah.voted") : t("musyawarah.notVoted")}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </ShowPaged>
    </section>
  );
}

function when(p: Poll): string {
  const phase = phaseOf(p);
  if (phase === "soon") {
    return t("musyawarah.opens", { at: dateTime(p.startsAt) });
  }
  return phase === "open" ? t("musyawarah.closes", { at: dateTime(p.endsAt) }) : t("musyawarah.ended");
}
