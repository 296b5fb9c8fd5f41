import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { t } from "../../i18n";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";

/** `/forgot-password`: sends the reset link (the API's reset page sets the password, then back to /login). */
export function Forgot() {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const form = useSubmit(() =>
    api.post<{ status: string }>("/api/auth/forgot-password", { email: email.trim() }),
  );
  const onSubmit = async (event: Event) => {
    if ((await form.submit(event)) !== undefined) {
      setSent(true);
    }
  };
  return (
    <section class="card narrow" aria-labelledby="forgot-title">
      <h1 id="forgot-title">{t("forgot.title")}</h1>
      {sent ? (
        <p role="status">{t("forgot.sent")}</p>
      ) : (
        <form onSubmit={onSubmit}>
          <p>{t("forgot.intro")}</p>
          <Field
            label={t("signIn.email")}
            name="email"
            type="email"
            autoComplete="email"
            required
            value={email}
            onInput={setEmail}
            error={form.fields.email}
          />
          <FormError error={form.error} />
          <Submit busy={form.busy}>{t("forgot.submit")}</Submit>
        </form>
      )}
      <p>
        <a href="/login">{t("forgot.back")}</a>
      </p>
    </section>
  );
}
