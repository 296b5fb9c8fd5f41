import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { t } from "../../i18n";
import { switchCommunity, type TenantRef, useSession } from "../../session";
import { FormError, Submit, useSubmit } from "../../ui/forms";

interface JoinAccepted {
  tenant: TenantRef;
  roles: string[];
  resident: boolean;
}

/**
 * `/join?token=`: the link an existing account gets when staff approve its application. The token is the
 * proof, so accepting needs no sign-in; signed in, the app then opens the new community, otherwise the
 * sign-in screen opens it (`/login?tenant=`). New accounts set their password on the API's reset page.
 */
export function Join() {
  const { query, route } = useLocation();
  const session = useSession();
  const [joined, setJoined] = useState<JoinAccepted | null>(null);
  const token = query.token ?? "";
  const form = useSubmit(() => api.post<JoinAccepted>("/api/auth/join/accept", { token }));
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
  const name = session.status === "signedIn" ? session.user.name : "";
  return (
    <section class="card narrow" aria-labelledby="join-title">
      <h1 id="join-title">{t("join.title")}</h1>
      {!token ? (
        <p class="alert" role="alert">
          {t("join.missing")}
        </p>
      ) : joined ? (
        <div role="status">
          <p>{t("join.done", { community: joined.tenant.name })}</p>
          {joined.roles.length > 0 && <p>{t("join.duties", { duties: joined.roles.join(", ") })}</p>}
          {session.status !== "signedIn" && (
            <a class="button primary" href={`/login?tenant=${encodeURIComponent(joined.tenant.slug)}`}>
              {t("signIn.submit")}
            </a>
          )}
        </div>
      ) : (
        <form onSubmit={onSubmit}>
          <p>{session.status === "signedIn" ? t("join.confirm", { name }) : t("join.intro")}</p>
          <FormError error={form.error} />
          <Submit busy={form.busy}>{t("join.confirmSubmit")}</Submit>
        </form>
      )}
    </section>
  );
}
