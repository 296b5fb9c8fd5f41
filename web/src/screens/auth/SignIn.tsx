import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { t } from "../../i18n";
import { signIn } from "../../session";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";
import { afterSignIn } from "./after";

/**
 * The providers configured on this deployment (`GET /api/auth/providers`); the app has a button for
 * Google only. None while loading or on failure: the button is an extra, never a reason to wait.
 */
function useGoogle(): boolean {
  const [google, setGoogle] = useState(false);
  useEffect(() => {
    api.get<{ providers: { name: string }[] }>("/api/auth/providers").then(
      (answer) => setGoogle(answer.providers.some((p) => p.name === "google")),
      () => undefined,
    );
  }, []);
  return google;
}

/** `/login`: email and password; `?tenant=` (from a join link) opens that community. */
export function SignIn() {
  const { route, query } = useLocation();
  const google = useGoogle();
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
      {query.reset && (
        <p class="notice" role="status">
          {t("auth.resetDone")}
        </p>
      )}
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
          <a href={`/login/whatsapp${query.tenant ? `?tenant=${encodeURIComponent(query.tenant)}` : ""}`}>
            {t("signIn.whatsapp")}
          </a>
        </li>
        <li>
          <a href="/auth/code">{t("signIn.officerCode")}</a>
        </li>
        <li>
          <a href="/forgot-password">{t("signIn.forgot")}</a>
        </li>
      </ul>
      {google && (
        // A page load, not a fetch: the API redirects the browser to Google and back to /auth/callback.
        <a
          class="button provider"
          href={`/api/auth/oauth/google${query.tenant ? `?tenant=${encodeURIComponent(query.tenant)}` : ""}`}
        >
          {t("signIn.google")}
        </a>
      )}
    </section>
  );
}
