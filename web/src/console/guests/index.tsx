import { Route, Router } from "preact-iso";
import { useLanguage } from "../../i18n";
import { DeviceEvents, Devices } from "./Devices";
import "./guests.css";
import { GuestLists } from "./Lists";

/**
 * `/pengurus/tamu`: the guest desk (issue 46 item 5). Requests waiting for approval, today's and all
 * visits; for the admin, the gate devices (a new one's key shown once) and what each one reported.
 */
export function Guests() {
  useLanguage();
  return (
    <Router>
      <Route path="/" component={GuestLists} />
      <Route path="/perangkat" component={Devices} />
      <Route path="/perangkat/:id" component={DeviceEvents} />
    </Router>
  );
}
