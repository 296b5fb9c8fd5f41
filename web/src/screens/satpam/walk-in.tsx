import { useState } from "preact/hooks";
import { api, newIdempotencyKey } from "../../api/client";
import { time } from "../../format";
import { type MessageKey, t } from "../../i18n";
import { AuthImage } from "../../ui/AuthImage";
import { problemText } from "../../ui/problem";
import { Empty, type Page, Show, useResource } from "../../ui/states";
import { type RegularVisitor, type Visitor, WALK_IN_CATEGORIES } from "../tamu/visitor";

/**
 * The gate as it is (issue 45): a guest who came unannounced registered on the spot, who is inside now
 * with a Keluar each, and the regular visitors' cards with a Masuk inside their windows.
 */

const categoryKey = (c: string) => `satpam.category.${c}` as MessageKey;

/** The walk-in's photo beside its name, when the guard took one (read with the token). */
export function GuestPhoto({ visitor }: { visitor: Visitor }) {
  return visitor.photoUrl ? (
    <AuthImage
      src={visitor.photoUrl}
      alt={t("tamu.walkIn.photo", { guest: visitor.guestName })}
      width={48}
      height={48}
      class="guest-thumb"
    />
  ) : null;
}

/** "Tamu datang langsung": name, category, purpose, plate and the host's house. */
export function WalkInForm({ onRegistered }: { onRegistered: () => void }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [photo, setPhoto] = useState<File | null>(null);
  if (!open) {
    return (
      <p>
        <button type="button" class="satpam-big" onClick={() => setOpen(true)}>
          {t("satpam.walkIn")}
        </button>
        {done && <span role="status"> {t("satpam.walkInSent", { guest: done })}</span>}
        {photoError && (
          <span class="field-error" role="alert">
            {" "}
            {photoError}
          </span>
        )}
      </p>
    );
  }
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    const text = (k: string) => String(form.get(k) ?? "").trim();
    const body: Record<string, string> = {
      guestName: text("guestName"),
      category: text("category"),
      block: text("block"),
      number: text("number"),
    };
    for (const k of ["purpose", "vehiclePlate"]) {
      if (text(k)) {
        body[k] = text(k);
      }
    }
    setBusy(true);
    setError(null);
    setPhotoError(null);
    try {
      const created = await api.post<Visitor>("/api/visitor/gate/walk-in", body, {
        idempotencyKey: newIdempotencyKey(),
      });
      // The photo goes right after the registration: a failure there leaves the guest registered.
      if (photo) {
        const upload = new FormData();
        upload.set("file", photo, photo.name);
        try {
          await api.upload(`/api/visitor/${encodeURIComponent(created.id)}/foto`, upload, {
            idempotencyKey: newIdempotencyKey(),
          });
        } catch (e) {
          setPhotoError(t("satpam.walkInPhotoFailed", { reason: problemText(e) }));
        }
      }
      setDone(created.guestName);
      setPhoto(null);
      setOpen(false);
      onRegistered();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card satpam-walk-in" onSubmit={onSubmit} aria-labelledby="satpam-walk-in-title">
      <h2 id="satpam-walk-in-title">{t("satpam.walkIn")}</h2>
      <label>
        {t("satpam.walkInName")}
        <input name="guestName" required minLength={2} maxLength={120} />
      </label>
      <label>
        {t("satpam.walkInCategory")}
        <select name="category">
          {WALK_IN_CATEGORIES.map((c) => (
            <option key={c} value={c}>
              {t(categoryKey(c))}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("satpam.walkInPurpose")}
        <input name="purpose" maxLength={500} />
      </label>
      <label>
        {t("satpam.walkInPlate")}
        <input name="vehiclePlate" maxLength={20} autoCapitalize="characters" />
      </label>
      <label>
        {t("satpam.walkInPhoto")}
        <input
          name="photo"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          capture="environment"
          onChange={(e) => setPhoto((e.currentTarget as HTMLInputElement).files?.[0] ?? null)}
        />
      </label>
      <fieldset>
        <legend>{t("satpam.walkInHouse")}</legend>
        <label>
          {t("satpam.walkInBlock")}
          <input name="block" required maxLength={20} autoCapitalize="characters" />
        </label>
        <label>
          {t("satpam.walkInNumber")}
          <input name="number" required maxLength={20} />
        </label>
      </fieldset>
      {error !== null && (
        <p class="field-error" role="alert">
          {problemText(error)}
        </p>
      )}
      <button type="submit" class="primary" disabled={busy}>
        {t("satpam.walkInSubmit")}
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        {t("satpam.cancel")}
      </button>
    </form>
  );
}

/** A row's action: one button that posts, then tells the list to reload or shows why not. */
function Action(props: { label: string; path: string; body: unknown; onDone: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.post(props.path, props.body, { idempotencyKey: newIdempotencyKey() });
      props.onDone();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span>
      <button type="button" disabled={busy} onClick={run}>
        {props.label}
      </button>
      {error !== null && (
        <span class="field-error" role="alert">
          {" "}
          {problemText(error)}
        </span>
      )}
    </span>
  );
}

/** A walk-in waiting for its host: the guard approves it once the host said yes on the phone. */
export function ApproveByPhone({ visitor, onDone }: { visitor: Visitor; onDone: () => void }) {
  return (
    <Action
      label={t("satpam.approveByPhone")}
      path={`/api/visitor/${encodeURIComponent(visitor.id)}/telepon`}
      body={{}}
      onDone={onDone}
    />
  );
}

/** An approved walk-in holds no pass: the guard lets them in from the list. */
export function LetIn({ visitor, onDone }: { visitor: Visitor; onDone: () => void }) {
  return (
    <Action
      label={t("satpam.letIn")}
      path="/api/visitor/gate/check-in"
      body={{ visitorId: visitor.id }}
      onDone={onDone}
    />
  );
}

/** "Di dalam sekarang": everyone inside, whatever day they came, each with Keluar. */
export function InsideNow({ reloadKey, onChanged }: { reloadKey: number; onChanged: () => void }) {
  const inside = useResource(
    () => api.get<Page<Visitor>>("/api/visitor", { query: { inside: "true", limit: 100 } }),
    [reloadKey],
  );
  return (
    <article class="card" aria-labelledby="satpam-inside-now">
      <Show resource={inside} lines={2}>
        {(page) => (
          <>
            <h2 id="satpam-inside-now">
              {t("satpam.insideNow")} ({page.items.length})
            </h2>
            {page.items.length === 0 ? (
              <Empty>{t("satpam.none")}</Empty>
            ) : (
              <ul class="rows">
                {page.items.map((v) => (
                  <li key={v.id}>
                    <GuestPhoto visitor={v} />
                    <span>
                      <strong>{v.guestName}</strong>
                      <br />
                      <span class="muted">
                        {v.residentName ? t("satpam.host", { host: v.residentName }) : null}
                        {v.checkedInAt ? ` · ${time(v.checkedInAt)}` : null}
                      </span>
                    </span>
                    <Action
                      label={t("satpam.letOut")}
                      path="/api/visitor/gate/check-out"
                      body={{ visitorId: v.id }}
                      onDone={onChanged}
                    />
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Show>
    </article>
  );
}

/** "Tamu tetap": the regular visitors' cards, with Masuk inside their windows and the schedule otherwise. */
export function RegularVisitors({ onChanged }: { onChanged: () => void }) {
  const cards = useResource(() =>
    api.get<Page<RegularVisitor>>("/api/visitor/regular", { query: { limit: 100 } }),
  );
  return (
    <article class="card" aria-labelledby="satpam-regular">
      <h2 id="satpam-regular">{t("satpam.regular")}</h2>
      <Show resource={cards} lines={2}>
        {(page) =>
          page.items.length === 0 ? (
            <Empty>{t("satpam.none")}</Empty>
          ) : (
            <ul class="rows">
              {page.items.map((r) => (
                <li key={r.id}>
                  <span>
                    <strong>{r.name}</strong>
                    <br />
                    <span class="muted">
                      {t("satpam.regularWindow", { from: r.fromTime, until: r.untilTime })}
                    </span>
                  </span>
                  {r.admittedNow ? (
                    <Action
                      label={t("satpam.letIn")}
                      path={`/api/visitor/regular/${encodeURIComponent(r.id)}/check-in`}
                      body={{}}
                      onDone={onChanged}
                    />
                  ) : (
                    <span class="muted">{t("satpam.regularOutside")}</span>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Show>
    </article>
  );
}
