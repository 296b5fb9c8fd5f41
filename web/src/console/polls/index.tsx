import { Route, Router } from "preact-iso";
import { useLanguage } from "../../i18n";
import { PollDesk } from "./Detail";
import { EditPoll, NewPoll } from "./Form";
import { PollList } from "./List";
import "./polls.css";

/**
 * `/pengurus/musyawarah`: the secretary's polls (issue 46 item 6). The list by status; a new poll and a
 * draft's edit (options, schedule, quorum, secrecy, choices, who votes); publish, close, live results.
 */
export function Polls() {
  useLanguage();
  return (
    <Router>
      <Route path="/" component={PollList} />
      <Route path="/baru" component={NewPoll} />
      <Route path="/:id/ubah" component={EditPoll} />
      <Route path="/:id" component={PollDesk} />
    </Router>
  );
}
