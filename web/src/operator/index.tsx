import type { ComponentType } from "preact";
import { useEffect } from "preact/hooks";
import { lazy, Route, Router, useLocation } from "preact-iso";
import { useLanguage } from "../i18n";
import { useSession } from "../session";
import { Empty } from "../ui/states";
import "../console/console.css";
import "./operator.css";
import { ox } from "./text";

/** Whether the person runs the platform (the API refuses everyone else its `/api/platform/*` routes). */
export const isOperator = (roles: readonly string[]): boolean => roles.includes("super_admin");

interface Area {
  path: string;
  label: Parameters<typeof ox>[0];
  screen: ComponentType;
}

/** The operator's areas, each its own chunk loaded when first opened, each owning the paths under its own. */
const AREAS: Area[] = [
  {
    path: "/support-tickets",
    label: "support",
    screen: lazy(() => import("./support").then((m) => m.Support)),
  },
  {
    path: "/communities",
    label: "communities",
    screen: lazy(() => import("./communities").then((m) => m.Communities)),
  },
  {
    path: "/billing",
    label: "billing",
    screen: lazy(() => import("./billing").then((m) => m.Billing)),
  },
  {
    path: "/health",
    label: "health",
    screen: lazy(() => import("./health").then((m) => m.HealthView)),
  },
  {
    path: "/operations",
    label: "operations",
    screen: lazy(() => import("./ops").then((m) => m.Operations)),
  },
];

function ToFirst() {
  const { route } = useLocation();
  useEffect(() => route(`/platform${AREAS[0]?.path ?? ""}`, true), [route]);
  return null;
}

/**
 * `/platform`: the platform operator's console (issue 47), in the same app, signed in the same way, for a
 * `super_admin` only. On a desktop the areas sit in a side column; on a phone they scroll as one row.
 */
export function Operator() {
  useLanguage();
  const session = useSession();
  const { path } = useLocation();
  if (session.status !== "signedIn") {
    return null;
  }
  if (!isOperator(session.user.roles)) {
    return (
      <section aria-labelledby="operator-title">
        <h1 id="operator-title">{ox("title")}</h1>
        <Empty>{ox("notForYou")}</Empty>
      </section>
    );
  }
  const here = (a: Area) => path === `/platform${a.path}` || path.startsWith(`/platform${a.path}/`);
  return (
    <div class="operator">
      <nav class="operator-nav" aria-label={ox("nav")}>
        <ul>
          {AREAS.map((a) => (
            <li key={a.path}>
              <a href={`/platform${a.path}`} aria-current={here(a) ? "page" : undefined}>
                {ox(a.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="operator-body">
        <Router>
          <Route path="/" component={ToFirst} />
          {AREAS.flatMap((a) => [
            <Route key={a.path} path={a.path} component={a.screen} />,
            <Route key={`${a.path}/*`} path={`${a.path}/*`} component={a.screen} />,
          ])}
          <Route
            default
            component={() => (
              <section aria-labelledby="operator-missing">
                <h1 id="operator-missing">{ox("title")}</h1>
                <Empty>{ox("missing")}</Empty>
              </section>
            )}
          />
        </Router>
      </div>
    </div>
  );
}
