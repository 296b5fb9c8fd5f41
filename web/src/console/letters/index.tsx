import { Route, Router } from "preact-iso";
import { useLanguage } from "../../i18n";
import { LetterDesk } from "./Detail";
import "./letters.css";
import { LetterQueue } from "./Queue";
import { LetterSettingsScreen } from "./Settings";

/**
 * `/pengurus/surat`: the secretary's letter desk (issue 46 item 4). The queue by status; a request's
 * detail where it is numbered and finished, sent back or declined, previewed as PDF and, when the RW is
 * slow, issued without it; the letterhead and signatory settings.
 */
export function Letters() {
  useLanguage();
  return (
    <Router>
      <Route path="/" component={LetterQueue} />
      <Route path="/pengaturan" component={LetterSettingsScreen} />
      <Route path="/:id" component={LetterDesk} />
    </Router>
  );
}
