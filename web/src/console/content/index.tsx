import { useLanguage } from "../../i18n";

/** Placeholder until this section is built (issue 46): replaced as a whole by its screens. */
export function Content() {
  useLanguage();
  return (
    <section aria-labelledby="s-title">
      <h1 id="s-title">Content</h1>
    </section>
  );
}
