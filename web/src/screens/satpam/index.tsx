import { t, useLanguage } from "../../i18n";

/** `/satpam`: the satpam screens (a placeholder until they are built). */
export function Satpam() {
  useLanguage();
  return (
    <section aria-labelledby="satpam-title">
      <h1 id="satpam-title">{t("nav.satpam")}</h1>
    </section>
  );
}
