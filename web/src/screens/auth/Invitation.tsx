import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { type MessageKey, t, useLanguage } from "../../i18n";
import { type SessionUser, signIn, switchCommunity, type TenantRef, useSession } from "../../session";
import { Field, FormError, Submit, useSubmit } from "../../ui/forms";

/** What `POST /api/auth/join/preview` answers: what an invitation or join link is for. */
export interface InvitationPreview {
  kind: "invitation" | "join";
  hasAccount: boolean;
  name: string;
  signInWith: { email: string | null; whatsapp: string | null } | null;
  tenant: TenantRef;
  roles: string[];
  resident: boolean;
}

interface JoinAccepted {
  tenant: TenantRef;
  roles: string[];
  resident: boolean;
}

export const previewInvitation = (token: string) =>
  api.post<InvitationPreview>("/api/auth/join/preview", { token });

/** "sekretaris dan bendahara" in the person's language; a plain resident has no duty. */
function duties(roles: string[]): string {
  return roles.map((r) => t(`auth.duty.${r}` as MessageKey)).join(t("auth.and"));
}

/** The community and duties a link is for, shown before the person acts on it. */
function WhatYouJoin({ preview }: { preview: InvitationPreview }) {
  return (
    <dl class="invitation">
      <dt>{t("auth.community")}</dt>
      <dd>{preview.tenant.name}</dd>
      <dt>{t("auth.asWhat")}</dt>
      <dd>{preview.roles.length > 0 ? duties(preview.roles) : t("auth.asResident")}</dd>
    </dl>
  );
}

/**
 * The landing of an invitation (`/join?token=`, and `/reset-password?token=` for the set-password links
 * sent before the app existed): the community and duties first; then a new account sets its password and
 * is signed in, and an existing account confirms. The token was taken out of the address bar already.
 */
export function InvitationLanding({ token, preview }: { token: string; preview: InvitationPreview }) {
  useLanguage();
  return (
    <section class="card narrow" aria-labelledby="join-title">
      <h1 id="join-title">{t("join.title")}</h1>
      <p>{t("auth.invited", { name: preview.name })}</p>
      <WhatYouJoin preview={preview} />
      {preview.kind === "invitation" ? (
        <SetPassword token={token} preview={preview} />
      ) : (
        <ConfirmJoin token={token} preview={preview} />
      )}
    </section>
  );
}

/** A set-password link: the password is set, then the person is signed in to that community. */
function SetPassword({ token, preview }: { token: string; preview: InvitationPreview }) {
  const { route } = useLocation();
  const [password, setPassword] = useState("");
  // Once set, the link is spent: pressing again after a failed sign-in only signs in.
  const [passwordSet, setPasswordSet] = useState(false);
  const form = useSubmit(async (idempotencyKey): Promise<SessionUser> => {
    if (!passwordSet) {
      await api.post<void>("/api/auth/reset-password", { token, password }, { idempotencyKey });
      setPasswordSet(true);
    }
    const who = preview.signInWith ?? { email: null, whatsapp: null };
    return signIn({
      ...(who.email ? { email: who.email } : { whatsapp: who.whatsapp ?? "" }),
      password,
      tenant: preview.tenant.slug,
    });
  });
  const onSubmit = async (event: Event) => {
    if (await form.submit(event)) {
      route("/", true);
    }
  };
  return (
    <form onSubmit={onSubmit}>
      <p>{preview.hasAccount ? t("auth.newPasswordIntro") : t("join.newAccount")}</p>
      {preview.signInWith && (
        <p>
          {t("auth.signInName")} <strong>{preview.signInWith.email ?? preview.signInWith.whatsapp}</strong>
        </p>
      )}
      <Field
        label={t("join.password")}
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={8}
        value={password}
        onInput={setPassword}
        error={form.fields.password}
      />
      <FormError error={form.error} />
      <Submit busy={form.busy}>{t("join.submit")}</Submit>
    </form>
  );
}

/** An existing account's join link: accepted, then the app opens the new community. */
function ConfirmJoin({ token, preview }: { token: string; preview: InvitationPreview }) {
  const { route } = useLocation();
  const session = useSession();
  const [joined, setJoined] = useState<JoinAccepted | null>(null);
  const form = useSubmit((idempotencyKey) =>
    api.post<JoinAccepted>("/api/auth/join/accept", { token }, { idempotencyKey }),
  );
  const onSubmit = async (event: Event) => {
    const result = await form.submit(event);
    if (!result) {
      return;
    }
    setJoined(result);
    if (session.status === "signedIn") {
      await switchCommunity(result.tenant.slug).then(
        () => route("/", true),
        () => undefined,
      );
    }
  };
  if (joined) {
    return (
      <div role="status">
        <p>{t("join.done", { community: joined.tenant.name })}</p>
        {session.status !== "signedIn" && (
          <a class="button primary" href={`/login?tenant=${encodeURIComponent(joined.tenant.slug)}`}>
            {t("signIn.submit")}
          </a>
        )}
      </div>
    );
  }
  const name = session.status === "signedIn" ? session.user.name : preview.name;
  return (
    <form onSubmit={onSubmit}>
      <p>{session.status === "signedIn" ? t("join.confirm", { name }) : t("join.intro")}</p>
      <FormError error={form.error} />
      <Submit busy={form.busy}>{t("join.confirmSubmit")}</Submit>
    </form>
  );
}
