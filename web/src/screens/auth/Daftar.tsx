import { useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api } from "../../api/client";
import { t, useLanguage } from "../../i18n";
import { Field, FormError, Submit, TextArea, useSubmit } from "../../ui/forms";

/**
 * `/daftar/:slug`: the public application to become a resident of a community (no account needed),
 * posted to `POST /api/public/tenants/:slug/applications`. The API answers alike for a new application
 * and a repeat, so the screen only says what happens next: staff check it, and an approval sends a link
 * to set a password (or, for an existing account, to join).
 */
export function Daftar() {
  useLanguage();
  const { params } = useRoute();
  const slug = params.slug ?? "";
  const [fullName, setFullName] = useState("");
  const [whatsapp, setWhatsapp] = useState("");
  const [email, setEmail] = useState("");
  const [block, setBlock] = useState("");
  const [houseNumber, setHouseNumber] = useState("");
  const [kkNumber, setKkNumber] = useState("");
  const [note, setNote] = useState("");
  const [sent, setSent] = useState(false);
  const form = useSubmit((idempotencyKey) =>
    api.post<{ status: string }>(
      `/api/public/tenants/${encodeURIComponent(slug)}/applications`,
      {
        fullName: fullName.trim(),
        whatsapp: whatsapp.trim(),
        block: block.trim(),
        houseNumber: houseNumber.trim(),
        // Optional fields are left out rather than sent empty: the API checks what it is given.
        ...(email.trim() ? { email: email.trim() } : {}),
        ...(kkNumber.trim() ? { kkNumber: kkNumber.trim() } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
      },
      { idempotencyKey },
    ),
  );
  const onSubmit = async (event: Event) => {
    if (await form.submit(event)) {
      setSent(true);
    }
  };
  const f = form.fields;
  return (
    <section class="card narrow daftar" aria-labelledby="daftar-title">
      <h1 id="daftar-title">{t("auth.daftar.title")}</h1>
      <p class="muted">{t("auth.daftar.community", { slug })}</p>
      {sent ? (
        <div role="status" class="daftar-done">
          <p>
            <strong>{t("auth.daftar.sent")}</strong>
          </p>
          <p>{t("auth.daftar.next")}</p>
          <a href="/login">{t("auth.daftar.toSignIn")}</a>
        </div>
      ) : (
        <form onSubmit={onSubmit}>
          <p>{t("auth.daftar.intro")}</p>
          <Field
            label={t("auth.daftar.fullName")}
            name="fullName"
            autoComplete="name"
            required
            value={fullName}
            onInput={setFullName}
            error={f.fullName}
          />
          <Field
            label={t("auth.daftar.whatsapp")}
            name="whatsapp"
            type="tel"
            autoComplete="tel"
            required
            value={whatsapp}
            onInput={setWhatsapp}
            error={f.whatsapp}
          />
          <Field
            label={t("auth.daftar.email")}
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onInput={setEmail}
            error={f.email}
          />
          <div class="daftar-house">
            <Field
              label={t("auth.daftar.block")}
              name="block"
              required
              value={block}
              onInput={setBlock}
              error={f.block}
            />
            <Field
              label={t("auth.daftar.houseNumber")}
              name="houseNumber"
              required
              value={houseNumber}
              onInput={setHouseNumber}
              error={f.houseNumber}
            />
          </div>
          <Field
            label={t("auth.daftar.kkNumber")}
            name="kkNumber"
            value={kkNumber}
            onInput={setKkNumber}
            error={f.kkNumber}
          />
          <TextArea
            label={t("auth.daftar.note")}
            name="note"
            rows={3}
            maxLength={500}
            value={note}
            onInput={setNote}
            error={f.note}
          />
          <FormError error={form.error} />
          <Submit busy={form.busy}>{t("auth.daftar.submit")}</Submit>
        </form>
      )}
    </section>
  );
}
