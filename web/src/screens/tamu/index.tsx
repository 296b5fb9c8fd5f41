import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { dateTime } from "../../format";
import { t, useLanguage } from "../../i18n";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { PassView } from "./PassView";
import { RegisterForm } from "./RegisterForm";
import { stageKey, stageOf, type Visitor, whenOf } from "./visitor";

/**
 * `/tamu`: the resident's guests. The Worker answers every `/tamu/<pass>` itself (the guest's pass page,
 * linked from messages already sent), so the app owns `/tamu` only and tells its views apart by the query:
 * `/tamu` the list, `/tamu?baru` the registration form, `/tamu?id=<id>` one guest and its pass.
 */
export function Tamu() {
  useLanguage();
  const { query } = useLocation();
  if (query.id) {
    return <PassView id={query.id} />;
  }
  if (query.baru !== undefined) {
    return <RegisterForm />;
  }
  return <MyGuests />;
}

const GROUPS = ["today", "upcoming", "past"] as const;

function MyGuests() {
  const paged = usePaged((cursor) =>
    api.get<Page<Visitor>>("/api/visitor/mine", { query: { cursor, limit: 20 } }),
  );
  return (
    <section class="tamu-list" aria-labelledby="tamu-title">
      <h1 id="tamu-title">{t("tamu.title")}</h1>
      <p>
        <a class="button primary" href="/tamu?baru">
          {t("tamu.register")}
        </a>
      </p>
      <ShowPaged paged={paged} empty={t("tamu.empty")} lines={4}>
        {(items) => {
          const now = new Date();
          return GROUPS.map((group) => {
            const rows = items.filter((v) => whenOf(v, now) === group);
            // The day's own guests first, nearest first; the past newest first.
            rows.sort((a, b) => (group === "past" ? -1 : 1) * a.visitAt.localeCompare(b.visitAt));
            return (
              rows.length > 0 && (
                <article key={group} class="card" aria-labelledby={`tamu-${group}`}>
                  <h2 id={`tamu-${group}`}>{t(`tamu.group.${group}`)}</h2>
                  <ul class="rows tamu-rows">
                    {rows.map((v) => (
                      <li key={v.id}>
                        <a href={`/tamu?id=${encodeURIComponent(v.id)}`}>
                          <strong>{v.guestName}</strong>
                          <span class="muted">{dateTime(v.visitAt)}</span>
                        </a>
                        <span class={`badge tamu-${stageOf(v)}`}>{t(stageKey(stageOf(v)))}</span>
                      </li>
                    ))}
                  </ul>
                </article>
              )
            );
          });
        }}
      </ShowPaged>
    </section>
  );
}
