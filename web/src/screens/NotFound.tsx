import { t } from "../i18n";

/** Any address the app does not know (the API's own paths never reach the app). */
export function NotFound() {
  return (
    <section class="card narrow" aria-labelledby="notfound-title">
      <h1 id="notfound-title">{t("notFound.title")}</h1>
      <p>{t("notFound.body")}</p>
      <a href="/">{t("common.back")}</a>
    </section>
  );
}
