import { t, useLanguage } from "../../i18n";

/** `/iuran`: the iuran screens (a placeholder until they are built). */
export function Iuran() {
  useLanguage();
  return (
    <section aria-labelledby="iuran-title">
      <h1 id="iuran-title">{t("nav.iuran")}</h1>
    </section>
  );
}
