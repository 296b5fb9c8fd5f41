import { t, useLanguage } from "../../i18n";

/** `/aspirasi`: the aspirasi screens (a placeholder until they are built). */
export function Aspirasi() {
  useLanguage();
  return (
    <section aria-labelledby="aspirasi-title">
      <h1 id="aspirasi-title">{t("nav.aspirasi")}</h1>
    </section>
  );
}
