import { t, useLanguage } from "../../i18n";

/** `/profil`: the profil screens (a placeholder until they are built). */
export function Profil() {
  useLanguage();
  return (
    <section aria-labelledby="profil-title">
      <h1 id="profil-title">{t("nav.profil")}</h1>
    </section>
  );
}
