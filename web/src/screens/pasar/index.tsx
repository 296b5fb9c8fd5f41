import { Route, Router } from "preact-iso";
import { useLanguage } from "../../i18n";
import { Browse } from "./Browse";
import { ListingDetail } from "./Detail";
import { ListingForm } from "./ListingForm";
import { MyListings } from "./Mine";

/** `/pasar`: neighbours' listings; `/pasar/saya` mine; `/pasar/baru` to sell; `/pasar/:id` one listing. */
export function Pasar() {
  useLanguage();
  return (
    <Router>
      <Route path="/" component={Browse} />
      <Route path="/saya" component={MyListings} />
      <Route path="/baru" component={ListingForm} />
      <Route path="/:id/ubah" component={ListingForm} />
      <Route path="/:id" component={ListingDetail} />
    </Router>
  );
}
