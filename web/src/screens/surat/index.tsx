import { t, useLanguage } from "../../i18n";

/** `/surat`: the surat screens (a placeholder until they are built). */
export function Surat() {
  useLanguage();
  return (
    <section aria-labelledby="surat-title">
      <h1 id="surat-title">{t("nav.surat")}</h1>
    </section>
  );
}
