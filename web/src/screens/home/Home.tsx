import { jakartaDay } from "../../../../src/core/time";
import { api } from "../../api/client";
import { isOfficer } from "../../console/duties";
import { date, dateTime, money, period } from "../../format";
import { type MessageKey, t, useLanguage } from "../../i18n";
import { type SessionUser, useSession } from "../../session";
import { Empty, Show, useResource } from "../../ui/states";

interface Bill {
  id: string;
  typeName: string;
  period: string;
  outstanding: number;
  status: "belum" | "sebagian" | "lunas";
}
interface MyDues {
  items: Bill[];
  totals: { outstanding: number; unpaidBills: number };
}
interface Letter {
  id: string;
  jenisName: string;
  status: string;
  createdAt: string;
}
interface Poll {
  id: string;
  title: string;
  endsAt: string;
  hasVoted?: boolean;
}
interface Guest {
  id: string;
  guestName: string;
  visitAt: string;
  status: "menunggu" | "disetujui" | "ditolak";
  checkedInAt: string | null;
  checkedOutAt: string | null;
}
interface News {
  id: string;
  title: string;
  publishedAt: string | null;
}
interface Announcement {
  id: string;
  title: string;
  urgent: boolean;
  publishedAt: string | null;
}
interface Page<T> {
  items: T[];
}

const OPEN_LETTERS = new Set(["diajukan", "diproses", "perlu_perbaikan", "selesai"]);

/** `/`: what needs the resident now, from the documented resident routes, each block on its own. */
export function Home() {
  useLanguage();
  const session = useSession();
  if (session.status !== "signedIn") {
    return null;
  }
  const user = session.user;
  return (
    <section aria-labelledby="home-title">
      <h1 id="home-title">{t("home.greeting", { name: user.name })}</h1>
      <p class="muted">{user.tenant?.name}</p>
      <h2 class="sr-only">{t("home.needs")}</h2>
      {!user.tenant ? (
        // A platform operator signed in without a community: their work is the operator's console.
        <p class="card">
          <a href="/platform">{t("home.operator")}</a>
        </p>
      ) : user.resident ? (
        <ResidentBlocks />
      ) : (
        <p class="card">
          {t("home.notResident")} {isOfficer(user) && <a href="/pengurus">{t("home.console")}</a>}
        </p>
      )}
      {user.tenant && <Announcements user={user} />}
    </section>
  );
}

function ResidentBlocks() {
  const dues = useResource(() => api.get<MyDues>("/api/iuran/mine"));
  const letters = useResource(() => api.get<Page<Letter>>("/api/surat/mine", { query: { limit: 10 } }));
  const polls = useResource(() =>
    api.get<Page<Poll>>("/api/musyawarah", { query: { status: "aktif", limit: 10 } }),
  );
  const guests = useResource(() => api.get<Page<Guest>>("/api/visitor/mine", { query: { limit: 20 } }));
  return (
    <div class="blocks">
      <article class="card" aria-labelledby="bills-title">
        <h3 id="bills-title">
          <a href="/iuran">{t("home.bills")}</a>
        </h3>
        <Show resource={dues}>
          {(d) => {
            const unpaid = d.items.filter((b) => b.status !== "lunas");
            return unpaid.length === 0 ? (
              <Empty>{t("home.billsNone")}</Empty>
            ) : (
              <>
                <ul class="rows">
                  {unpaid.map((b) => (
                    <li key={b.id}>
                      <span>
                        {b.typeName} · {period(b.period)}
                      </span>
                      <strong>{money(b.outstanding)}</strong>
                    </li>
                  ))}
                </ul>
                <p class="total">{t("home.billsTotal", { amount: money(d.totals.outstanding) })}</p>
              </>
            );
          }}
        </Show>
      </article>
      <article class="card" aria-labelledby="letters-title">
        <h3 id="letters-title">
          <a href="/surat">{t("home.letters")}</a>
        </h3>
        <Show resource={letters}>
          {(page) => {
            const open = page.items.filter((l) => OPEN_LETTERS.has(l.status));
            return open.length === 0 ? (
              <Empty>{t("home.lettersNone")}</Empty>
            ) : (
              <ul class="rows">
                {open.map((l) => (
                  <li key={l.id}>
                    <span>{l.jenisName}</span>
                    <span class={`badge badge-${l.status}`}>{t(`letter.${l.status}` as MessageKey)}</span>
                  </li>
                ))}
              </ul>
            );
          }}
        </Show>
      </article>
      <article class="card" aria-labelledby="polls-title">
        <h3 id="polls-title">
          <a href="/musyawarah">{t("home.polls")}</a>
        </h3>
        <Show resource={polls}>
          {(page) => {
            const open = page.items.filter((p) => !p.hasVoted);
            return open.length === 0 ? (
              <Empty>{t("home.pollsNone")}</Empty>
            ) : (
              <ul class="rows">
                {open.map((p) => (
                  <li key={p.id}>
                    <a href={`/musyawarah/${p.id}`}>{p.title}</a>
                    <span class="muted">{t("home.pollCloses", { date: date(p.endsAt) })}</span>
                  </li>
                ))}
              </ul>
            );
          }}
        </Show>
      </article>
      <article class="card" aria-labelledby="guests-title">
        <h3 id="guests-title">
          <a href="/tamu">{t("home.guests")}</a>
        </h3>
        <Show resource={guests}>
          {(page) => {
            const today = jakartaDay(new Date());
            // Waiting for the committee's approval, or expected today and not gone yet.
            const shown = page.items.filter(
              (g) =>
                g.status === "menunggu" ||
                (g.status === "disetujui" && jakartaDay(new Date(g.visitAt)) === today && !g.checkedOutAt),
            );
            return shown.length === 0 ? (
              <Empty>{t("home.guestsNone")}</Empty>
            ) : (
              <ul class="rows">
                {shown.map((g) => (
                  <li key={g.id}>
                    <span>
                      {g.guestName}{" "}
                      <span class="badge">
                        {g.status === "menunggu"
                          ? t("home.guestWaiting")
                          : g.checkedInAt
                            ? t("home.guestInside")
                            : t("home.guestExpected")}
                      </span>
                      <br />
                      <span class="muted">{dateTime(g.visitAt)}</span>
                    </span>
                  </li>
                ))}
              </ul>
            );
          }}
        </Show>
      </article>
    </div>
  );
}

function Announcements({ user }: { user: SessionUser }) {
  const news = useResource(
    () => api.get<Page<Announcement>>("/api/pengumuman", { query: { limit: 3 } }),
    [user.tenant?.slug],
  );
  return (
    <div class="blocks">
      <article class="card" aria-labelledby="news-title">
        <h3 id="news-title">
          <a href="/pengumuman">{t("home.news")}</a>
        </h3>
        <Show resource={news} lines={3}>
          {(page) =>
            page.items.length === 0 ? (
              <Empty>{t("home.newsNone")}</Empty>
            ) : (
              <ul class="rows">
                {page.items.map((a) => (
                  <li key={a.id}>
                    <span>
                      {a.urgent && <span class="badge badge-urgent">!</span>}{" "}
                      <a href={`/pengumuman/${a.id}`}>{a.title}</a>
                    </span>
                    {a.publishedAt && <span class="muted">{date(a.publishedAt)}</span>}
                  </li>
                ))}
              </ul>
            )
          }
        </Show>
      </article>
      <LatestNews user={user} />
    </div>
  );
}

function LatestNews({ user }: { user: SessionUser }) {
  const news = useResource(
    () => api.get<Page<News>>("/api/berita", { query: { limit: 3 } }),
    [user.tenant?.slug],
  );
  return (
    <article class="card" aria-labelledby="berita-title">
      <h3 id="berita-title">
        <a href="/berita">{t("home.berita")}</a>
      </h3>
      <Show resource={news} lines={3}>
        {(page) =>
          page.items.length === 0 ? (
            <Empty>{t("home.beritaNone")}</Empty>
          ) : (
            <ul class="rows">
              {page.items.map((n) => (
                <li key={n.id}>
                  <a href={`/berita/${n.id}`}>{n.title}</a>
                  {n.publishedAt && <span class="muted">{date(n.publishedAt)}</span>}
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </article>
  );
}
