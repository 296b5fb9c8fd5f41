import { render } from "@testing-library/preact";
import type { ComponentType } from "preact";
import { LocationProvider, Route, Router } from "preact-iso";

/** Opens `url` inside an area the way app.tsx mounts it (`/<area>` and `/<area>/*`), its nested routes included. */
export function openArea(area: string, Screen: ComponentType, url: string) {
  history.replaceState(null, "", url);
  return render(
    <LocationProvider>
      <Router>
        <Route path={area} component={Screen} />
        <Route path={`${area}/*`} component={Screen} />
      </Router>
    </LocationProvider>,
  );
}
