import { useLanguage } from "../../i18n";

/** Placeholder until this section is built (issue 46): replaced as a whole by its screens. */
export function Finance() {
  useLanguage();
  return (
    <section aria-labelledby="s-title">
      <h1 id="s-title">Finance</h1>
    </section>
  );
}
