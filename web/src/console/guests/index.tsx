import { useLanguage } from "../../i18n";

/** Placeholder until this section is built (issue 46): replaced as a whole by its screens. */
export function Guests() {
  useLanguage();
  return (
    <section aria-labelledby="s-title">
      <h1 id="s-title">Guests</h1>
    </section>
  );
}
