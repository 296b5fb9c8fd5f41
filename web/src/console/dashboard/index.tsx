import { api } from "../../api/client";
import { dateTime, money } from "../../format";
import { useLanguage } from "../../i18n";
import { useSession } from "../../session";
import { Empty, Show, useResource } from "../../ui/states";
import { PLACES, type PlaceKey, placesFor } from "../places";
import { tx } from "./text";
import "./dashboard.css";

/** What `GET /api/statistik/operasional` answers. */
interface Operasional {
  indicators: { key: string; label: string; value: number }[];
  generatedAt: string;
}

/** The figures seen at the last visit: counts and a time, nothing about anyone. */
interface Seen {
  at: string;
  values: Record<string, number>;
}

/** The section of the console (places.ts) with the work behind each indicator. */
const WORK: Record<string, PlaceKey> = {
  duesArrears: "Finance",
  duesArrearsUnits: "Finance",
  lettersAwaitingProcessing: "Letters",
  newComplaints: "Content",
  openComplaints: "Content",
  guestsAwaitingApproval: "Guests",
  activePolls: "Polls",
  totalResidents: "Registry",
  pasarActiveListings: "Content",
};

/** Indicators counted in rupiah rather than in things. */
const MONEY = new Set(["duesArrears"]);

const storeKey = (tenant: string, user: string) => `warga.console.seen.${tenant}.${user}`;

function readSeen(key: string): Seen | null {
  try {
    const raw = localStorage.getItem(key);
    const seen = raw ? (JSON.parse(raw) as Seen) : null;
    return seen && typeof seen.at === "string" && typeof seen.values === "object" ? seen : null;
  } catch {
    return null;
  }
}

function writeSeen(key: string, seen: Seen): void {
  try {
    localStorage.setItem(key, JSON.stringify(seen));
  } catch {
    // Storage refused (private mode): the next visit simply shows no change.
  }
}

/**
 * `/pengurus`: the RT's operational indicators as cards linking to the work behind them (only to the
 * sections this person's duties open), each with its change since the last visit, remembered on this
 * device per community and person (localStorage: counts and a time only).
 */
export function Dashboard() {
  useLanguage();
  const session = useSession();
  const user = session.status === "signedIn" ? session.user : null;
  const key = user ? storeKey(user.tenant?.slug ?? "-", user.id) : "";
  const resource = useResource(async () => {
    const previous = readSeen(key);
    const data = await api.get<Operasional>("/api/statistik/operasional");
    writeSeen(key, {
      at: data.generatedAt,
      values: Object.fromEntries(data.indicators.map((i) => [i.key, i.value])),
    });
    return { data, previous };
  }, [key]);
  if (!user) {
    return null;
  }
  const open = new Set(placesFor(user).map((p) => p.key));
  return (
    <section aria-labelledby="dash-title" class="dash">
      <h1 id="dash-title">{tx("title")}</h1>
      <p class="muted">{tx("intro")}</p>
      <Show resource={resource} lines={4}>
        {({ data, previous }) =>
          data.indicators.length === 0 ? (
            <Empty>{tx("none")}</Empty>
          ) : (
            <>
              <ul class="kpis dash-kpis" aria-label={tx("cards")}>
                {data.indicators.map((i) => {
                  const label = i.key in WORK ? tx(i.key as "totalResidents") : i.label;
                  const value = MONEY.has(i.key) ? money(i.value) : i.value.toLocaleString("id-ID");
                  const before = previous?.values[i.key];
                  const change = before === undefined ? null : i.value - before;
                  const changeText =
                    change === null
                      ? null
                      : change === 0
                        ? tx("same")
                        : tx("since", {
                            change: `${change > 0 ? "+" : "−"}${
                              MONEY.has(i.key) ? money(Math.abs(change)) : Math.abs(change)
                            }`,
                          });
                  const body = (
                    <>
                      <span class="dash-label">{label}</span>
                      <strong>{value}</strong>
                      {changeText && (
                        <span class={change ? "dash-change dash-moved" : "dash-change"}>{changeText}</span>
                      )}
                    </>
                  );
                  const work = WORK[i.key];
                  return (
                    <li key={i.key}>
                      {work && open.has(work) ? (
                        <a href={`/pengurus${PLACES[work].path}`}>{body}</a>
                      ) : (
                        <div class="dash-card">{body}</div>
                      )}
                    </li>
                  );
                })}
              </ul>
              <p class="muted">
                {tx("generatedAt", { when: dateTime(data.generatedAt) })}{" "}
                {previous ? tx("lastVisit", { when: dateTime(previous.at) }) : tx("firstVisit")}
              </p>
            </>
          )
        }
      </Show>
    </section>
  );
}
