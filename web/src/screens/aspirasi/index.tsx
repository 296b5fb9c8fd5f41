import { Route, Router } from "preact-iso";
import { useLanguage } from "../../i18n";
import { ComplaintDetail } from "./ComplaintDetail";
import { NewProposal, NewSuggestion } from "./NewAspiration";
import { NewComplaint } from "./NewComplaint";
import { Overview } from "./Overview";

/** `/aspirasi`: my complaints and the proposals; a complaint with a photo, a suggestion, a proposal. */
export function Aspirasi() {
  useLanguage();
  return (
    <Router>
      <Route path="/" component={Overview} />
      <Route path="/pengaduan/baru" component={NewComplaint} />
      <Route path="/pengaduan/:id" component={ComplaintDetail} />
      <Route path="/usulan/baru" component={NewProposal} />
      <Route path="/saran" component={NewSuggestion} />
    </Router>
  );
}
