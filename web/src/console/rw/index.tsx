import { useLanguage } from "../../i18n";

/** Placeholders until the RW's console is built (issue 46): replaced as a whole by its screens. */
export function RwDashboard() {
  useLanguage();
  return (
    <section aria-labelledby="s-title">
      <h1 id="s-title">RW</h1>
    </section>
  );
}
export const RwLinks = RwDashboard;
export const RwLetters = RwDashboard;
