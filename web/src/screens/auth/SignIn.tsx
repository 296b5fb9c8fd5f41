import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { t } from "../../i18n";
import { signIn } from "../../session";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";
import { afterSignIn } from "./after";

/** `/login`: email and password; `?tenant=` (from a join link) opens that community. */
export function SignIn() {
  const { route, query } = useLocation();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const form = useSubmit(() => signIn({ email: email.trim(), password, tenant: query.tenant || undefined }));
  const onSubmit = async (event: Event) => {
    const user = await form.submit(event);
    if (user) {
      afterSignIn(route, query.next);
    }
  };
  return (
    <section class="card narrow" aria-labelledby="signin-title">
      <h1 id="signin-title">{t("signIn.title")}</h1>
      <form onSubmit={onSubmit} noValidate={false}>
        <Field
          label={t("signIn.email")}
          name="email"
          type="email"
          autoComplete="username"
          required
          value={email}
          onInput={setEmail}
          error={form.fields.email}
        />
        <Field
          label={t("signIn.password")}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={setPassword}
          error={form.fields.password}
        />
        <FormError error={form.error} />
        <Submit busy={form.busy}>{t("signIn.submit")}</Submit>
      </form>
      <ul class="links">
        <li>
          <a href="/login/link">{t("signIn.magic")}</a>
        </li>
        <li>
          <a href="/forgot-password">{t("signIn.forgot")}</a>
        </li>
      </ul>
    </section>
  );
}
