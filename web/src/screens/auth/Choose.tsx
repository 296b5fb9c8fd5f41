import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { t } from "../../i18n";
import { switchCommunity, type TenantRef, useSession } from "../../session";
import { FormError } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";

interface Me {
  memberships: { tenant: TenantRef; roles: string[]; resident: boolean }[];
}

/** `/communities`: for a person in several communities, which one the app opens. */
export function Choose() {
  const { route } = useLocation();
  const session = useSession();
  const me = useResource(() => api.get<Me>("/api/user/me"));
  const current = session.status === "signedIn" ? session.user.tenant?.slug : undefined;
  const [error, setError] = useState<unknown>(null);
  const choose = async (slug: string) => {
    setError(null);
    try {
      if (slug !== current) {
        await switchCommunity(slug);
      }
      route("/");
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <section class="card" aria-labelledby="choose-title">
      <h1 id="choose-title">{t("choose.title")}</h1>
      <p>{t("choose.intro")}</p>
      <FormError error={error} />
      <Show resource={me} lines={3}>
        {(data) => (
          <ul class="choices">
            {data.memberships.map((m) => (
              <li key={m.tenant.slug}>
                <button type="button" onClick={() => choose(m.tenant.slug)}>
                  {m.tenant.name} {m.tenant.slug === current && <span>{t("choose.current")}</span>}
                </button>
              </li>
            ))}
          </ul>
        )}
      </Show>
    </section>
  );
}
