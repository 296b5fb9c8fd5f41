import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api, newIdempotencyKey } from "../../api/client";
import { dateTime } from "../../format";
import { t, useLanguage } from "../../i18n";
import { AuthImage } from "../../ui/AuthImage";
import { problemText } from "../../ui/problem";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import { PassView } from "./PassView";
import { RegisterForm } from "./RegisterForm";
import { RegularCards } from "./RegularCards";
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
  if (query.tetap !== undefined) {
    return <RegularCards />;
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
        </a>{" "}
        <a class="button" href="/tamu?tetap">
          {t("tamu.regular.title")}
        </a>
      </p>
      <ShowPaged paged={paged} empty={t("tamu.empty")} lines={4}>
        {(items) => {
          const now = new Date();
          const atGate = items.filter((v) => v.walkIn && v.status === "menunggu");
          const reload = () => paged.state === "ready" && paged.reload();
          return [
            atGate.length > 0 && (
              <article key="gate" class="card" aria-labelledby="tamu-at-gate">
                <h2 id="tamu-at-gate">{t("tamu.walkIn.title")}</h2>
                <ul class="rows">
                  {atGate.map((v) => (
                    <AtGate key={v.id} visitor={v} onDone={reload} />
                  ))}
                </ul>
              </article>
            ),
            ...GROUPS.map((group) => {
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
            }),
          ];
        }}
      </ShowPaged>
    </section>
  );
}

/**
 * A guest the guard registered at the gate for this house (issue 45): the household answers from here,
 * Setujui or Tolak, and the guard's screen sees the answer.
 */
function AtGate({ visitor, onDone }: { visitor: Visitor; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const answer = async (status: "disetujui" | "ditolak") => {
    setBusy(true);
    setError(null);
    try {
      await api.post(
        `/api/visitor/${encodeURIComponent(visitor.id)}/tuan-rumah`,
        { status },
        { idempotencyKey: newIdempotencyKey() },
      );
      onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <li>
      <span>
        {visitor.photoUrl && (
          <AuthImage
            src={visitor.photoUrl}
            alt={t("tamu.walkIn.photo", { guest: visitor.guestName })}
            width={64}
            height={64}
            class="guest-thumb"
          />
        )}
        <strong>{visitor.guestName}</strong>
        <br />
        <span class="muted">
          {visitor.purpose} · {dateTime(visitor.visitAt)}
          {visitor.vehiclePlate ? ` · ${visitor.vehiclePlate}` : null}
        </span>
        {error !== null && (
          <span class="field-error" role="alert">
            <br />
            {problemText(error)}
          </span>
        )}
      </span>
      <span>
        <button type="button" class="primary" disabled={busy} onClick={() => answer("disetujui")}>
          {t("tamu.walkIn.approve")}
        </button>{" "}
        <button type="button" disabled={busy} onClick={() => answer("ditolak")}>
          {t("tamu.walkIn.reject")}
        </button>
      </span>
    </li>
  );
}
