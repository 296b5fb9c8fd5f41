import { t, useLanguage } from "../../i18n";

/** `/asisten`: the asisten screens (a placeholder until they are built). */
export function Asisten() {
  useLanguage();
  return (
    <section aria-labelledby="asisten-title">
      <h1 id="asisten-title">{t("nav.asisten")}</h1>
    </section>
  );
}
