import { Route, Router } from "preact-iso";
import { useLanguage } from "../../i18n";
import { LetterDetail } from "./Detail";
import { MyLetters } from "./List";
import { RequestLetter } from "./Request";

/** `/surat`: my letters; `/surat/baru` to request one; `/surat/:id` its status, PDF, cancel or correct. */
export function Surat() {
  useLanguage();
  return (
    <Router>
      <Route path="/" component={MyLetters} />
      <Route path="/baru" component={RequestLetter} />
      <Route path="/:id" component={LetterDetail} />
    </Router>
  );
}
