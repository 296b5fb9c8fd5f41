import { Route, Router } from "preact-iso";
import { NotFound } from "../NotFound";
import { PollDetail } from "./PollDetail";
import { PollList } from "./PollList";

/** `/musyawarah` (the polls open for voting) and `/musyawarah/:id` (one poll: vote, results). */
export function Musyawarah() {
  return (
    <Router>
      <Route path="/" component={PollList} />
      <Route path="/:id" component={PollDetail} />
      <Route default component={NotFound} />
    </Router>
  );
}
