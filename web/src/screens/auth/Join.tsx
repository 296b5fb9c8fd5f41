import { ApiError } from "../../api/client";
import { t, useLanguage } from "../../i18n";
import { Show, useResource } from "../../ui/states";
import { InvitationLanding, previewInvitation } from "./Invitation";
import { useLinkToken } from "./linkToken";

/**
 * `/join?token=`: an invitation to a community. What it is for (community, duties) is shown before
 * anything is done; a new account then sets its password and lands signed in, an existing account
 * confirms (the token is the proof, so accepting needs no sign-in).
 */
export function Join() {
  useLanguage();
  const token = useLinkToken();
  const preview = useResource(() => (token ? previewInvitation(token) : Promise.resolve(null)), [token]);
  // A link the community withdrew (a newer invitation, the admin revoked it, the member was removed)
  // is told apart from one used or expired: the person needs a new invitation, not a retry.
  const retired =
    preview.state === "error" &&
    preview.error instanceof ApiError &&
    preview.error.problem.code === "invitation_retired";
  if (!token || retired) {
    return (
      <section class="card narrow" aria-labelledby="join-title">
        <h1 id="join-title">{t("join.title")}</h1>
        <p class="alert" role="alert">
          {t(token ? "join.retired" : "join.missing")}
        </p>
      </section>
    );
  }
  return (
    <Show resource={preview} lines={4}>
      {(found) => (found ? <InvitationLanding token={token} preview={found} /> : null)}
    </Show>
  );
}
