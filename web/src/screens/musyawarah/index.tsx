import { t, useLanguage } from "../../i18n";

/** `/musyawarah`: the musyawarah screens (a placeholder until they are built). */
export function Musyawarah() {
  useLanguage();
  return (
    <section aria-labelledby="musyawarah-title">
      <h1 id="musyawarah-title">{t("nav.musyawarah")}</h1>
    </section>
  );
}
