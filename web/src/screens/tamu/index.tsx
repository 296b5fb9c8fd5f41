import { t, useLanguage } from "../../i18n";

/** `/tamu`: the tamu screens (a placeholder until they are built). */
export function Tamu() {
  useLanguage();
  return (
    <section aria-labelledby="tamu-title">
      <h1 id="tamu-title">{t("nav.tamu")}</h1>
    </section>
  );
}
