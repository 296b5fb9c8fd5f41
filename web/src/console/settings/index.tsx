import { useState } from "preact/hooks";
import { lazy, Route, Router } from "preact-iso";
import { ApiError, api } from "../../api/client";
import { date } from "../../format";
import { useLanguage } from "../../i18n";
import { useSession } from "../../session";
import { FormError } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { Confirm } from "../ui";
import { Archives } from "./Archives";
import { Subscription } from "./Subscription";
import "./settings.css";
import { tx } from "./text";

// The support desk (list, new ticket, thread) is the biggest part: its own chunk, loaded when opened.
const Tickets = lazy(() => import("./Tickets").then((m) => m.Tickets));

/**
 * `/pengurus/pengaturan/*`: the community's settings (admin; issue 46 item 9). The overview links to the
 * subscription, the archive and the support desk, says whether the letters' settings are complete (they
 * are edited at the letter desk), and for an RT answers an RW's request to become its parent.
 */
export function Settings() {
  useLanguage();
  return (
    <Router>
      <Route path="/" component={Overview} />
      <Route path="/langganan" component={Subscription} />
      <Route path="/arsip" component={Archives} />
      <Route path="/bantuan" component={Tickets} />
      <Route path="/bantuan/*" component={Tickets} />
    </Router>
  );
}

function Overview() {
  const session = useSession();
  const isRt = session.status === "signedIn" && session.user.tenant?.type !== "RW";
  return (
    <section aria-labelledby="set-title" class="set">
      <h1 id="set-title">{tx("title")}</h1>
      <ul class="set-tiles">
        <li>
          <a href="/pengurus/pengaturan/langganan">
            <strong>{tx("subscription")}</strong>
            <span>{tx("subscriptionLead")}</span>
          </a>
        </li>
        <li>
          <a href="/pengurus/pengaturan/arsip">
            <strong>{tx("archives")}</strong>
            <span>{tx("archivesLead")}</span>
          </a>
        </li>
        <li>
          <a href="/pengurus/pengaturan/bantuan">
            <strong>{tx("support")}</strong>
            <span>{tx("supportLead")}</span>
          </a>
        </li>
      </ul>
      <Features />
      {isRt && <LetterSettingsState />}
      {isRt && <ParentRequest />}
    </section>
  );
}

type Flag = "warga" | "surat" | "tamu" | "musyawarah" | "pasar";
const FLAGS: Flag[] = ["warga", "surat", "tamu", "musyawarah", "pasar"];

/**
 * The modules on for this community (GET /api/tenant/features): read-only, since only the platform's
 * operators switch them; a support ticket is the way to ask.
 */
function Features() {
  const features = useResource(() => api.get<{ flags: Record<Flag, boolean> }>("/api/tenant/features"));
  return (
    <section class="card" aria-labelledby="set-flags">
      <h2 id="set-flags">{tx("features")}</h2>
      <Show resource={features}>
        {(f) => (
          <>
            <ul class="set-flags">
              {FLAGS.map((flag) => (
                <li key={flag}>
                  <span>{tx(`flag_${flag}`)}</span>
                  <span class={`badge set-flag-${f.flags[flag] ? "on" : "off"}`}>
                    {f.flags[flag] ? tx("flagOn") : tx("flagOff")}
                  </span>
                </li>
              ))}
            </ul>
            <p class="muted">
              {tx("flagsReadOnly")} <a href="/pengurus/pengaturan/bantuan/baru">{tx("flagsAsk")}</a>
            </p>
          </>
        )}
      </Show>
    </section>
  );
}

interface LetterSettings {
  missing: string[];
}

/** What letters still lack (GET /api/surat/settings); the settings themselves are the letter desk's. */
function LetterSettingsState() {
  const settings = useResource(() => api.get<LetterSettings>("/api/surat/settings"));
  return (
    <section class="card" aria-labelledby="set-letters">
      <h2 id="set-letters">{tx("letters")}</h2>
      <Show resource={settings}>
        {(s) =>
          s.missing.length === 0 ? (
            <p>{tx("lettersComplete")}</p>
          ) : (
            <p class="set-warn">{tx("lettersMissing", { names: s.missing.join(", ") })}</p>
          )
        }
      </Show>
      <p>
        <a href="/pengurus/surat">{tx("lettersOpen")}</a>
      </p>
    </section>
  );
}

interface Pending {
  parent: { slug: string; name: string };
  requestedAt: string;
}

/**
 * An RW's request to become this RT's parent (GET /api/tenant-hierarchy/parent-request: 404 when none),
 * accepted or declined here.
 */
function ParentRequest() {
  const request = useResource(() =>
    api.get<Pending>("/api/tenant-hierarchy/parent-request").catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) {
        return null;
      }
      throw error;
    }),
  );
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const answer = async (verb: "accept" | "decline", name: string) => {
    setBusy(true);
    setError(null);
    try {
      await api.post(`/api/tenant-hierarchy/parent-request/${verb}`);
      setAsking(false);
      setDone(verb === "accept" ? tx("rwAccepted", { name }) : tx("rwDeclined"));
      if (request.state === "ready") {
        request.reload();
      }
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="set-rw">
      <h2 id="set-rw">{tx("rwLink")}</h2>
      {done && <p role="status">{done}</p>}
      <Show resource={request}>
        {(r) =>
          r === null ? (
            done ? null : (
              <p class="muted">{tx("rwNone")}</p>
            )
          ) : (
            <>
              <p>{tx("rwAsks", { name: r.parent.name, date: date(r.requestedAt) })}</p>
              {asking ? null : <FormError error={error} />}
              <div class="actions">
                <button
                  type="button"
                  class="primary"
                  disabled={busy}
                  onClick={() => answer("accept", r.parent.name)}
                >
                  {tx("rwAccept")}
                </button>
                <button type="button" disabled={busy} onClick={() => setAsking(true)}>
                  {tx("rwDecline")}
                </button>
              </div>
              <Confirm
                open={asking}
                title={tx("rwDeclineTitle", { name: r.parent.name })}
                confirmLabel={tx("rwDecline")}
                danger
                busy={busy}
                error={asking ? error : null}
                onConfirm={() => answer("decline", r.parent.name)}
                onCancel={() => setAsking(false)}
              />
            </>
          )
        }
      </Show>
    </section>
  );
}
