import { useRef, useState } from "preact/hooks";
import { api, NetworkError, newIdempotencyKey } from "../../api/client";
import { jakartaDay, time } from "../../format";
import { t, useLanguage } from "../../i18n";
import { useSession } from "../../session";
import { problemText } from "../../ui/problem";
import { Empty, type Page, Show, useResource } from "../../ui/states";
import type { Visitor } from "../tamu/visitor";
import { Camera } from "./Camera";
import { decodePhoto } from "./scanner";
import { ApproveByPhone, GuestPhoto, InsideNow, LetIn, RegularVisitors, WalkInForm } from "./walk-in";

type Direction = "in" | "out";

/** What the gate routes answer (src/modules/visitor/schemas.ts `GateResult`). */
interface GateResult {
  visitorId: string;
  guestName: string;
  checkedInAt: string | null;
  checkedOutAt: string | null;
}

type Outcome =
  | { ok: true; direction: Direction; result: GateResult; host?: string | null }
  | { ok: false; direction: Direction; error: unknown; retry?: () => void };

const GATE_DUTIES = ["satpam", "sekretaris", "bendahara", "admin"];

/**
 * `/satpam`: the gate. Today's guests (expected, inside, gone), and a pass checked in or out by the
 * phone's camera, a photo of it, or its text typed; the answer is big enough to read at arm's length,
 * in words and colour. Everything a guard presses sits in the lower half, for one thumb.
 */
export function Satpam() {
  useLanguage();
  const session = useSession();
  const roles = session.status === "signedIn" ? session.user.roles : [];
  if (!roles.some((role) => GATE_DUTIES.includes(role))) {
    return (
      <section aria-labelledby="satpam-title">
        <h1 id="satpam-title">{t("satpam.title")}</h1>
        <p class="card">{t("satpam.notGuard")}</p>
      </section>
    );
  }
  return <Gate />;
}

function Gate() {
  const today = jakartaDay(new Date());
  const guests = useResource(() =>
    api.get<Page<Visitor>>("/api/visitor", { query: { from: today, to: today, limit: 100 } }),
  );
  // Whose guest each of today's visitors is, kept across the list's reloads: a passage right after
  // another finds the list reading again, and the answer still names the host.
  const hosts = useRef(new Map<string, string>());
  if (guests.state === "ready") {
    for (const v of guests.data.items) {
      if (v.residentName) {
        hosts.current.set(v.id, v.residentName);
      }
    }
  }
  const [direction, setDirection] = useState<Direction>("in");
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  // Bumped by every passage and decision, so the list of who is inside now reads again.
  const [tick, setTick] = useState(0);
  const changed = () => {
    setTick((n) => n + 1);
    if (guests.state === "ready") {
      guests.reload();
    }
  };
  // A retry of the same scan (after no answer) keeps its Idempotency-Key; another scan gets its own.
  const lastScan = useRef<{ signature: string; key: string } | null>(null);

  const send = async (scanned: string, dir: Direction) => {
    // A QR carries the signed pass (a JWT, with dots); what a person types is the pass's short code.
    const body = scanned.includes(".") ? { qr: scanned } : { code: scanned };
    const signature = `${dir} ${scanned}`;
    if (lastScan.current?.signature !== signature) {
      lastScan.current = { signature, key: newIdempotencyKey() };
    }
    const key = lastScan.current.key;
    setBusy(true);
    try {
      const path = dir === "in" ? "/api/visitor/gate/check-in" : "/api/visitor/gate/check-out";
      const result = await api.post<GateResult>(path, body, { idempotencyKey: key });
      lastScan.current = null;
      setOutcome({ ok: true, direction: dir, result, host: hosts.current.get(result.visitorId) });
      changed();
      return true;
    } catch (error) {
      setOutcome({
        ok: false,
        direction: dir,
        error,
        retry: error instanceof NetworkError ? () => send(scanned, dir) : undefined,
      });
      return false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="satpam" aria-labelledby="satpam-title">
      <h1 id="satpam-title">{t("satpam.title")}</h1>
      <Show resource={guests} lines={1}>
        {(page) => <Counts items={page.items} />}
      </Show>
      <Result outcome={outcome} busy={busy} />
      <Controls
        direction={direction}
        onDirection={setDirection}
        busy={busy}
        onScan={(qr) => send(qr, direction)}
      />
      <WalkInForm onRegistered={changed} />
      <InsideNow reloadKey={tick} onChanged={changed} />
      <Show resource={guests} lines={4}>
        {(page) => <TodayList items={page.items} onChanged={changed} />}
      </Show>
      <RegularVisitors onChanged={changed} />
    </section>
  );
}

const expected = (v: Visitor) => v.status === "disetujui" && !v.checkedInAt;
/** A walk-in the guard registered, still waiting for the host (or the guard's call to them). */
const waiting = (v: Visitor) => v.status === "menunggu" && v.walkIn === true;
const inside = (v: Visitor) => v.inside;
const gone = (v: Visitor) => v.checkedOutAt !== null;

function Counts({ items }: { items: Visitor[] }) {
  return (
    <p class="satpam-counts">
      {t("satpam.counts", {
        expected: items.filter(expected).length,
        inside: items.filter(inside).length,
        gone: items.filter(gone).length,
      })}
    </p>
  );
}

/** The answer at arm's length: a word and a sign as well as a colour, and who the guest is visiting. */
function Result({ outcome, busy }: { outcome: Outcome | null; busy: boolean }) {
  return (
    <div class="satpam-result-slot" role="status" aria-live="assertive">
      {busy ? (
        <p class="satpam-result satpam-busy">{t("satpam.checking")}</p>
      ) : outcome?.ok ? (
        <div class="satpam-result satpam-ok">
          <p class="satpam-verdict">
            <span aria-hidden="true">✓ </span>
            {t(outcome.direction === "in" ? "satpam.in" : "satpam.out")}
          </p>
          <p class="satpam-who">
            {outcome.host
              ? t("satpam.guestOf", { guest: outcome.result.guestName, host: outcome.host })
              : outcome.result.guestName}
          </p>
        </div>
      ) : outcome ? (
        <div class="satpam-result satpam-refused">
          <p class="satpam-verdict">
            <span aria-hidden="true">✗ </span>
            {t(outcome.direction === "in" ? "satpam.refusedIn" : "satpam.refusedOut")}
          </p>
          <p class="satpam-who">{problemText(outcome.error)}</p>
          {outcome.retry && (
            <button type="button" onClick={outcome.retry}>
              {t("common.retry")}
            </button>
          )}
        </div>
      ) : null}
    </div>
  );
}

function Controls(props: {
  direction: Direction;
  onDirection: (d: Direction) => void;
  busy: boolean;
  /** Answers whether the guest went through. */
  onScan: (qr: string) => Promise<boolean>;
}) {
  const [camera, setCamera] = useState(false);
  const [code, setCode] = useState("");
  const [photoError, setPhotoError] = useState<string | null>(null);
  const onPhoto = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    input.value = "";
    if (!file) {
      return;
    }
    setPhotoError(null);
    const qr = await decodePhoto(file).catch(() => null);
    if (qr) {
      props.onScan(qr);
    } else {
      setPhotoError(t("satpam.noQr"));
    }
  };
  const onCode = async (event: Event) => {
    event.preventDefault();
    // Cleared once the guest went through, ready for the next; kept after a refusal, to correct it.
    if (code.trim() && (await props.onScan(code.trim()))) {
      setCode("");
    }
  };
  return (
    <div class="card satpam-controls">
      <fieldset class="satpam-direction">
        <legend>{t("satpam.direction")}</legend>
        {(["in", "out"] as const).map((d) => (
          <label key={d}>
            <input
              type="radio"
              name="direction"
              value={d}
              checked={props.direction === d}
              onChange={() => props.onDirection(d)}
            />
            {t(d === "in" ? "satpam.directionIn" : "satpam.directionOut")}
          </label>
        ))}
      </fieldset>
      <form class="satpam-code" onSubmit={onCode}>
        <label for="satpam-code">{t("satpam.code")}</label>
        <div>
          <input
            id="satpam-code"
            name="code"
            autoComplete="off"
            autoCapitalize="characters"
            spellcheck={false}
            value={code}
            onInput={(e) => setCode((e.currentTarget as HTMLInputElement).value)}
          />
          <button type="submit" disabled={props.busy}>
            {t("satpam.codeSubmit")}
          </button>
        </div>
      </form>
      {camera ? (
        <Camera
          onCode={(qr) => {
            setCamera(false);
            props.onScan(qr);
          }}
          onClose={() => setCamera(false)}
        />
      ) : (
        <button
          type="button"
          class="primary satpam-big"
          disabled={props.busy}
          onClick={() => setCamera(true)}
        >
          {t("satpam.camera")}
        </button>
      )}
      <label class="button satpam-big satpam-photo">
        {t("satpam.photo")}
        <input type="file" accept="image/*" capture="environment" class="sr-only" onChange={onPhoto} />
      </label>
      {photoError && (
        <p class="field-error" role="alert">
          {photoError}
        </p>
      )}
    </div>
  );
}

function TodayList({ items, onChanged }: { items: Visitor[]; onChanged: () => void }) {
  // Who is inside now is its own list (InsideNow), whatever day they came.
  const groups = [
    { key: "waiting", title: t("satpam.waitingHost"), rows: items.filter(waiting) },
    { key: "expected", title: t("satpam.expected"), rows: items.filter(expected) },
    { key: "gone", title: t("satpam.gone"), rows: items.filter(gone) },
  ];
  return (
    <>
      {groups.map((g) => (
        <article key={g.key} class="card" aria-labelledby={`satpam-${g.key}`}>
          <h2 id={`satpam-${g.key}`}>
            {g.title} ({g.rows.length})
          </h2>
          {g.rows.length === 0 ? (
            <Empty>{t("satpam.none")}</Empty>
          ) : (
            <ul class="rows">
              {g.rows.map((v) => (
                <li key={v.id}>
                  <GuestPhoto visitor={v} />
                  <span>
                    <strong>{v.guestName}</strong>
                    <br />
                    <span class="muted">
                      {v.residentName ? t("satpam.host", { host: v.residentName }) : null}
                      {v.vehiclePlate ? ` · ${v.vehiclePlate}` : null}
                    </span>
                  </span>
                  {g.key === "waiting" ? (
                    <ApproveByPhone visitor={v} onDone={onChanged} />
                  ) : g.key === "expected" && v.walkIn ? (
                    <LetIn visitor={v} onDone={onChanged} />
                  ) : (
                    <span class="muted">{time(v.checkedOutAt ?? v.checkedInAt ?? v.visitAt)}</span>
                  )}
                </li>
              ))}
            </ul>
          )}
        </article>
      ))}
    </>
  );
}
