import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { t } from "../../i18n";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";

/**
 * The one form behind "email me a link" (a sign-in link, a password reset link): an address in, a link
 * out by email. The API answers alike whether or not the address is known, so the screen only ever says
 * "sent"; undefined from `submit` means the request failed and the form keeps what was typed.
 */
export function EmailLinkForm({ kind, path }: { kind: "forgot" | "magic"; path: string }) {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState(false);
  const form = useSubmit(() => api.post<{ status: string }>(path, { email: email.trim() }));
  const onSubmit = async (event: Event) => {
    if ((await form.submit(event)) !== undefined) {
      setSent(true);
    }
  };
  return (
    <section class="card narrow" aria-labelledby={`${kind}-title`}>
      <h1 id={`${kind}-title`}>{t(`${kind}.title`)}</h1>
      {sent ? (
        <p role="status">{t(`${kind}.sent`)}</p>
      ) : (
        <form onSubmit={onSubmit}>
          <p>{t(`${kind}.intro`)}</p>
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
          <Submit busy={form.busy}>{t(`${kind}.submit`)}</Submit>
        </form>
      )}
      <p>
        <a href="/login">{t("forgot.back")}</a>
      </p>
    </section>
  );
}
