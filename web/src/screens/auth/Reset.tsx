import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { ApiError, api } from "../../api/client";
import { t, useLanguage } from "../../i18n";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";
import { problemText } from "../../ui/problem";
import { Loading, useResource } from "../../ui/states";
import { InvitationLanding, previewInvitation } from "./Invitation";
import { useLinkToken } from "./linkToken";

/**
 * `/reset-password?token=`: the link of a password reset email, and of the set-password invitations sent
 * before the app existed (the same path, so every link already sent still works). An invitation shows
 * what it joins (InvitationLanding); a reset link sets the new password and then opens the sign-in
 * screen with a notice, because the reset ends every session and names no account to sign in to.
 */
export function Reset() {
  useLanguage();
  const token = useLinkToken();
  // `token_invalid` is also what a reset token answers here: not an invitation, so the reset form.
  const preview = useResource(
    () =>
      previewInvitation(token).catch((error: unknown) => {
        if (error instanceof ApiError && error.problem.code === "token_invalid") {
          return null;
        }
        throw error;
      }),
    [token],
  );
  if (token && preview.state === "loading") {
    return (
      <section class="card narrow" aria-labelledby="reset-title">
        <h1 id="reset-title">{t("auth.resetTitle")}</h1>
        <Loading lines={3} />
      </section>
    );
  }
  if (token && preview.state === "ready" && preview.data) {
    return <InvitationLanding token={token} preview={preview.data} />;
  }
  return <ResetForm token={token} linkProblem={token && preview.state === "error" ? preview.error : null} />;
}

function ResetForm({ token, linkProblem }: { token: string; linkProblem: unknown }) {
  const { route } = useLocation();
  const [password, setPassword] = useState("");
  const [again, setAgain] = useState("");
  const [mismatch, setMismatch] = useState(false);
  const form = useSubmit((idempotencyKey) =>
    api.post<void>("/api/auth/reset-password", { token, password }, { idempotencyKey }).then(() => true),
  );
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    setMismatch(password !== again);
    if (password !== again) {
      return;
    }
    if (await form.submit()) {
      route("/login?reset=1", true);
    }
  };
  const spent = !token || linkProblem || (form.fields.token && !form.fields.password);
  return (
    <section class="card narrow" aria-labelledby="reset-title">
      <h1 id="reset-title">{t("auth.resetTitle")}</h1>
      {!token ? (
        <p class="alert" role="alert">
          {t("auth.resetMissing")}
        </p>
      ) : linkProblem ? (
        <p class="alert" role="alert">
          {problemText(linkProblem)}
        </p>
      ) : (
        <form onSubmit={onSubmit}>
          <p>{t("auth.resetIntro")}</p>
          <Field
            label={t("auth.newPassword")}
            name="password"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={password}
            onInput={setPassword}
            error={form.fields.password}
          />
          <Field
            label={t("auth.newPasswordAgain")}
            name="password-again"
            type="password"
            autoComplete="new-password"
            required
            minLength={8}
            value={again}
            onInput={setAgain}
            error={mismatch ? t("auth.passwordMismatch") : undefined}
          />
          <FormError error={form.error} />
          <Submit busy={form.busy}>{t("auth.resetSubmit")}</Submit>
        </form>
      )}
      <ul class="links">
        {spent && (
          <li>
            <a href="/forgot-password">{t("auth.resetAgain")}</a>
          </li>
        )}
        <li>
          <a href="/login">{t("forgot.back")}</a>
        </li>
      </ul>
    </section>
  );
}
