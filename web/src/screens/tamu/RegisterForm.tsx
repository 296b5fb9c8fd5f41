import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { t, useLanguage } from "../../i18n";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import type { Visitor } from "./visitor";

interface VisitorSettings {
  requireVehiclePlate: boolean;
  requireIdentity: boolean;
}

const JAKARTA_MS = 7 * 3_600_000;
const QUARTER_MS = 15 * 60_000;

/**
 * The visit's time as a `datetime-local` value in Asia/Jakarta (the community's clock, as every time the
 * app shows): the next quarter hour, so a guest at the door now has a pass that is valid at once (a pass
 * opens an hour before the visit).
 */
function soonInJakarta(now = Date.now()): string {
  const at = Math.ceil(now / QUARTER_MS) * QUARTER_MS;
  return new Date(at + JAKARTA_MS).toISOString().slice(0, 16);
}

/** `/tamu?baru`: register a guest; the community's settings say whether plate and identity are required. */
export function RegisterForm() {
  useLanguage();
  const settings = useResource(() => api.get<VisitorSettings>("/api/visitor/settings"));
  return (
    <section class="narrow" aria-labelledby="tamu-new-title">
      <h1 id="tamu-new-title">{t("tamu.new.title")}</h1>
      <Show resource={settings} lines={6}>
        {(s) => <Form settings={s} />}
      </Show>
      <p>
        <a href="/tamu">{t("tamu.backToList")}</a>
      </p>
    </section>
  );
}

function Form({ settings }: { settings: VisitorSettings }) {
  const { route } = useLocation();
  const [guestName, setGuestName] = useState("");
  const [purpose, setPurpose] = useState("");
  const [visitAt, setVisitAt] = useState(soonInJakarta);
  const [plate, setPlate] = useState("");
  const [identity, setIdentity] = useState("");
  const form = useSubmit((idempotencyKey) =>
    api.post<Visitor>(
      "/api/visitor",
      {
        guestName: guestName.trim(),
        purpose: purpose.trim(),
        // The input has no zone: the time typed is the community's (WIB), as the app writes every time.
        visitAt: visitAt ? `${visitAt}:00+07:00` : "",
        vehiclePlate: plate.trim() || undefined,
        identity: identity.trim() || undefined,
      },
      { idempotencyKey },
    ),
  );
  const onSubmit = async (event: Event) => {
    const created = await form.submit(event);
    if (created) {
      route(`/tamu?id=${encodeURIComponent(created.id)}`);
    }
  };
  const optional = (label: string, required: boolean) => (required ? label : t("tamu.optional", { label }));
  return (
    <form class="card" onSubmit={onSubmit}>
      <p class="muted">{t("tamu.new.intro")}</p>
      <Field
        label={t("tamu.field.guestName")}
        name="guestName"
        required
        minLength={2}
        value={guestName}
        onInput={setGuestName}
        error={form.fields.guestName}
      />
      <Field
        label={t("tamu.field.purpose")}
        name="purpose"
        required
        minLength={2}
        value={purpose}
        onInput={setPurpose}
        error={form.fields.purpose}
      />
      <Field
        label={t("tamu.field.visitAt")}
        name="visitAt"
        type="datetime-local"
        required
        value={visitAt}
        onInput={setVisitAt}
        error={form.fields.visitAt}
      />
      <Field
        label={optional(t("tamu.field.vehiclePlate"), settings.requireVehiclePlate)}
        name="vehiclePlate"
        required={settings.requireVehiclePlate}
        value={plate}
        onInput={setPlate}
        error={form.fields.vehiclePlate}
      />
      <Field
        label={optional(t("tamu.field.identity"), settings.requireIdentity)}
        name="identity"
        required={settings.requireIdentity}
        value={identity}
        onInput={setIdentity}
        error={form.fields.identity}
      />
      <FormError error={form.error} />
      <Submit busy={form.busy}>{t("tamu.new.submit")}</Submit>
    </form>
  );
}
