import { useState } from "preact/hooks";
import { api, newIdempotencyKey } from "../../api/client";
import { type MessageKey, t, useLanguage } from "../../i18n";
import { Field, FormError, Select, Submit, useSubmit } from "../../ui/forms";
import { problemText } from "../../ui/problem";
import { Empty, type Page, Show, useResource } from "../../ui/states";
import { REGULAR_ROLES, type RegularVisitor } from "./visitor";

/** ISO weekdays, Monday first, as the API counts them. */
const DAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const dayKey = (d: number) => `tamu.regular.day.${d}` as MessageKey;
const roleKey = (r: string) => `tamu.regular.role.${r}` as MessageKey;

/**
 * `/tamu?tetap`: the household's regular visitors (issue 45), domestic help or a driver with a card the
 * gate admits on its days and hours (WIB). The household issues one here and revokes it; the form keeps
 * what was typed when the request fails.
 */
export function RegularCards() {
  useLanguage();
  const [reloadKey, setReloadKey] = useState(0);
  const reload = () => setReloadKey((k) => k + 1);
  const cards = useResource(
    () => api.get<Page<RegularVisitor>>("/api/visitor/regular", { query: { limit: 100 } }),
    [reloadKey],
  );
  return (
    <section class="narrow" aria-labelledby="tamu-regular-title">
      <h1 id="tamu-regular-title">{t("tamu.regular.title")}</h1>
      <p class="muted">{t("tamu.regular.intro")}</p>
      <Show resource={cards} lines={3}>
        {(page) => {
          const live = page.items.filter((c) => !c.revokedAt);
          return live.length === 0 ? (
            <Empty>{t("tamu.regular.empty")}</Empty>
          ) : (
            <ul class="rows card">
              {live.map((c) => (
                <Card key={c.id} card={c} onRevoked={reload} />
              ))}
            </ul>
          );
        }}
      </Show>
      <IssueForm onIssued={reload} />
      <p>
        <a href="/tamu">{t("tamu.backToList")}</a>
      </p>
    </section>
  );
}

function Card({ card, onRevoked }: { card: RegularVisitor; onRevoked: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const revoke = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.post(
        `/api/visitor/regular/${encodeURIComponent(card.id)}/cabut`,
        {},
        { idempotencyKey: newIdempotencyKey() },
      );
      onRevoked();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const days = card.days.map((d) => t(dayKey(d))).join(", ");
  return (
    <li>
      <span>
        <strong>{card.name}</strong> · {t(roleKey(card.role))}
        <br />
        <span class="muted">
          {days} · {t("satpam.regularWindow", { from: card.fromTime, until: card.untilTime })}
          {card.vehiclePlate ? ` · ${card.vehiclePlate}` : null}
          {card.validUntil ? ` · ${t("tamu.regular.until", { day: card.validUntil })}` : null}
        </span>
        {error !== null && (
          <span class="field-error" role="alert">
            <br />
            {problemText(error)}
          </span>
        )}
      </span>
      <button type="button" disabled={busy} onClick={revoke}>
        {t("tamu.regular.revoke")}
      </button>
    </li>
  );
}

function IssueForm({ onIssued }: { onIssued: () => void }) {
  const [name, setName] = useState("");
  const [role, setRole] = useState<string>("art");
  const [days, setDays] = useState<number[]>([1, 2, 3, 4, 5]);
  const [fromTime, setFromTime] = useState("07:00");
  const [untilTime, setUntilTime] = useState("17:00");
  const [plate, setPlate] = useState("");
  const [validUntil, setValidUntil] = useState("");
  const form = useSubmit((idempotencyKey) =>
    api.post<RegularVisitor>(
      "/api/visitor/regular",
      {
        name: name.trim(),
        role,
        days,
        fromTime,
        untilTime,
        vehiclePlate: plate.trim() || undefined,
        validUntil: validUntil || undefined,
      },
      { idempotencyKey },
    ),
  );
  const onSubmit = async (event: Event) => {
    if (await form.submit(event)) {
      // Only a card the API accepted clears the form: after a failure everything typed stays.
      setName("");
      setPlate("");
      setValidUntil("");
      onIssued();
    }
  };
  const toggle = (d: number) =>
    setDays((now) => (now.includes(d) ? now.filter((x) => x !== d) : [...now, d].sort()));
  return (
    <form class="card" onSubmit={onSubmit} aria-labelledby="tamu-regular-new">
      <h2 id="tamu-regular-new">{t("tamu.regular.new")}</h2>
      <Field
        label={t("tamu.regular.name")}
        name="name"
        required
        minLength={2}
        value={name}
        onInput={setName}
        error={form.fields.name}
      />
      <Select
        label={t("tamu.regular.role")}
        name="role"
        value={role}
        onInput={setRole}
        options={REGULAR_ROLES.map((r) => ({ value: r, label: t(roleKey(r)) }))}
        error={form.fields.role}
      />
      <fieldset class="tamu-days">
        <legend>{t("tamu.regular.days")}</legend>
        {DAYS.map((d) => (
          <label key={d}>
            <input type="checkbox" checked={days.includes(d)} onChange={() => toggle(d)} /> {t(dayKey(d))}
          </label>
        ))}
        {form.fields.days && <p class="field-error">{form.fields.days}</p>}
      </fieldset>
      <Field
        label={t("tamu.regular.from")}
        name="fromTime"
        type="time"
        required
        value={fromTime}
        onInput={setFromTime}
        error={form.fields.fromTime}
      />
      <Field
        label={t("tamu.regular.untilTime")}
        name="untilTime"
        type="time"
        required
        value={untilTime}
        onInput={setUntilTime}
        error={form.fields.untilTime}
      />
      <Field
        label={t("tamu.optional", { label: t("tamu.field.vehiclePlate") })}
        name="vehiclePlate"
        value={plate}
        onInput={setPlate}
        error={form.fields.vehiclePlate}
      />
      <Field
        label={t("tamu.optional", { label: t("tamu.regular.lastDay") })}
        name="validUntil"
        type="date"
        value={validUntil}
        onInput={setValidUntil}
        error={form.fields.validUntil}
      />
      <FormError error={form.error} />
      <Submit busy={form.busy}>{t("tamu.regular.submit")}</Submit>
    </form>
  );
}
