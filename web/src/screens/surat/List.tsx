import { api } from "../../api/client";
import { date } from "../../format";
import { type MessageKey, t } from "../../i18n";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import type { Letter } from "./types";

/** `/surat`: the resident's letter requests, newest first, each with where it stands. */
export function MyLetters() {
  const letters = usePaged((cursor) =>
    api.get<Page<Letter>>("/api/surat/mine", { query: { limit: 20, cursor } }),
  );
  return (
    <section aria-labelledby="surat-title">
      <h1 id="surat-title">{t("surat.title")}</h1>
      <a class="button primary" href="/surat/baru">
        {t("surat.request")}
      </a>
      <h2 class="surat-h2">{t("surat.mine")}</h2>
      <ShowPaged paged={letters} empty={t("surat.none")} lines={3}>
        {(items) => (
          <ul class="rows surat-list">
            {items.map((l) => (
              <li key={l.id}>
                <a href={`/surat/${l.id}`}>
                  <span class="surat-name">{l.jenisName}</span>
                  <span class="muted">
                    {l.subjectName} · {date(l.createdAt)}
                  </span>
                </a>
                <span class={`badge badge-${l.status}`}>
                  {l.awaitingRw ? t("surat.awaitingRw") : t(`letter.${l.status}` as MessageKey)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </ShowPaged>
    </section>
  );
}
