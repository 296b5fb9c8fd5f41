import { Route, Router, useLocation } from "preact-iso";
import { useLanguage } from "../i18n";
import { useSession } from "../session";
import { Empty } from "../ui/states";
import "./console.css";
import { type Section, sectionsFor } from "./sections";
import { cx } from "./text";

/**
 * `/pengurus`: the committee's console (issue 46), in the same app, signed in the same way. A member sees
 * the sections of every duty they hold (sections.ts); "Rumah saya" (the bottom bar's Beranda, or the
 * header) takes them back to their own household in one tap. On a desktop the sections sit in a side
 * column; on a phone they scroll as one row above the screen.
 */
export function Console() {
  const lang = useLanguage();
  const session = useSession();
  const { path } = useLocation();
  if (session.status !== "signedIn") {
    return null;
  }
  const sections = sectionsFor(session.user);
  if (sections.length === 0) {
    return (
      <section aria-labelledby="console-title">
        <h1 id="console-title">{cx("title")}</h1>
        <Empty>{cx("noDuty")}</Empty>
      </section>
    );
  }
  const here = (s: Section) => {
    const full = `/pengurus${s.path}`;
    return s.path === ""
      ? path === "/pengurus" || path === "/pengurus/"
      : path === full || path.startsWith(`${full}/`);
  };
  return (
    <div class="console">
      <nav class="console-nav" aria-label={cx("nav")}>
        <ul>
          {sections.map((s) => (
            <li key={s.path}>
              <a href={`/pengurus${s.path}`} aria-current={here(s) ? "page" : undefined}>
                {s.label[lang]}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="console-body">
        <Router>
          {sections.flatMap((s) =>
            s.path === ""
              ? [<Route key="home" path="/" component={s.screen} />]
              : [
                  <Route key={s.path} path={s.path} component={s.screen} />,
                  <Route key={`${s.path}/*`} path={`${s.path}/*`} component={s.screen} />,
                ],
          )}
          <Route
            default
            component={() => (
              <section aria-labelledby="console-missing">
                <h1 id="console-missing">{cx("title")}</h1>
                <Empty>{cx("noDuty")}</Empty>
              </section>
            )}
          />
        </Router>
      </div>
    </div>
  );
}
