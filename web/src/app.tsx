import type { ComponentType } from "preact";
import { useEffect } from "preact/hooks";
import { ErrorBoundary, LocationProvider, lazy, Route, Router, useLocation } from "preact-iso";
import { setLanguage, t, useLanguage } from "./i18n";
import { signOut, useSession } from "./session";
import { Loading } from "./ui/states";

// Every screen is its own chunk: the first screen loads the shell and itself only (ADR 0041).
const SignIn = lazy(() => import("./screens/auth/SignIn").then((m) => m.SignIn));
const MagicLinkRequest = lazy(() => import("./screens/auth/MagicLink").then((m) => m.MagicLinkRequest));
const MagicLinkLanding = lazy(() => import("./screens/auth/MagicLink").then((m) => m.MagicLinkLanding));
const Forgot = lazy(() => import("./screens/auth/Forgot").then((m) => m.Forgot));
const Join = lazy(() => import("./screens/auth/Join").then((m) => m.Join));
const Choose = lazy(() => import("./screens/auth/Choose").then((m) => m.Choose));
const Home = lazy(() => import("./screens/home/Home").then((m) => m.Home));
const NotFound = lazy(() => import("./screens/NotFound").then((m) => m.NotFound));

/** Moves to `to` once rendered (a redirect inside the app). */
function Redirect({ to }: { to: string }) {
  const { route } = useLocation();
  useEffect(() => route(to, true), [to, route]);
  return null;
}

/** A screen for signed-in people: the sign-in screen first otherwise, coming back here after it. */
function signedIn(Screen: ComponentType) {
  return function SignedInOnly() {
    const session = useSession();
    const { url } = useLocation();
    if (session.status === "starting") {
      return <Loading lines={3} />;
    }
    if (session.status === "signedOut") {
      return <Redirect to={`/login?next=${encodeURIComponent(url)}`} />;
    }
    return <Screen />;
  };
}

/** A sign-in screen: a person already signed in goes home instead. */
function signedOut(Screen: ComponentType) {
  return function SignedOutOnly() {
    const session = useSession();
    if (session.status === "starting") {
      return <Loading lines={3} />;
    }
    return session.status === "signedIn" ? <Redirect to="/" /> : <Screen />;
  };
}

const HomeScreen = signedIn(Home);
const ChooseScreen = signedIn(Choose);
const SignInScreen = signedOut(SignIn);
const MagicRequestScreen = signedOut(MagicLinkRequest);
const ForgotScreen = signedOut(Forgot);

function Header() {
  const session = useSession();
  const lang = useLanguage();
  const { route } = useLocation();
  const out = async () => {
    await signOut().catch(() => undefined);
    route("/login");
  };
  return (
    <header class="top">
      <a class="brand" href="/">
        {t("app.name")}
      </a>
      <nav aria-label={t("app.name")}>
        {session.status === "signedIn" && (
          <>
            <a href="/communities">{t("nav.switch")}</a>
            <button type="button" onClick={out}>
              {t("nav.signOut")}
            </button>
          </>
        )}
        <button
          type="button"
          lang={lang === "id" ? "en" : "id"}
          aria-label={t("app.languageLabel")}
          onClick={() => setLanguage(lang === "id" ? "en" : "id")}
        >
          {t("app.language")}
        </button>
      </nav>
    </header>
  );
}

export function App() {
  useLanguage();
  return (
    <LocationProvider>
      <a class="skip" href="#main">
        {t("app.skip")}
      </a>
      <Header />
      <main id="main" tabIndex={-1}>
        <ErrorBoundary>
          <Router>
            <Route path="/" component={HomeScreen} />
            <Route path="/login" component={SignInScreen} />
            <Route path="/login/link" component={MagicRequestScreen} />
            <Route path="/auth/magic-link" component={MagicLinkLanding} />
            <Route path="/forgot-password" component={ForgotScreen} />
            <Route path="/join" component={Join} />
            <Route path="/communities" component={ChooseScreen} />
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </main>
    </LocationProvider>
  );
}
