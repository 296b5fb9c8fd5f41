import { t, useLanguage } from "../../i18n";

/** `/pasar`: the pasar screens (a placeholder until they are built). */
export function Pasar() {
  useLanguage();
  return (
    <section aria-labelledby="pasar-title">
      <h1 id="pasar-title">{t("nav.pasar")}</h1>
    </section>
  );
}
