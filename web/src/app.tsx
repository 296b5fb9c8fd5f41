import type { ComponentType } from "preact";
import { useEffect } from "preact/hooks";
import { ErrorBoundary, LocationProvider, lazy, Route, Router, useLocation } from "preact-iso";
import { isOfficer } from "./console/duties";
import { type MessageKey, setLanguage, t, useLanguage } from "./i18n";
import { OfflineBanner } from "./pwa/OfflineBanner";
import { type SessionUser, signOut, useSession } from "./session";
import { Loading } from "./ui/states";

// Every screen is its own chunk: the first screen loads the shell and itself only (ADR 0041).
const SignIn = lazy(() => import("./screens/auth/SignIn").then((m) => m.SignIn));
const MagicLinkRequest = lazy(() => import("./screens/auth/MagicLink").then((m) => m.MagicLinkRequest));
const MagicLinkLanding = lazy(() => import("./screens/auth/MagicLink").then((m) => m.MagicLinkLanding));
const WhatsappSignIn = lazy(() => import("./screens/auth/Code").then((m) => m.WhatsappSignIn));
const SignInCode = lazy(() => import("./screens/auth/Code").then((m) => m.SignInCode));
const Forgot = lazy(() => import("./screens/auth/Forgot").then((m) => m.Forgot));
const Join = lazy(() => import("./screens/auth/Join").then((m) => m.Join));
const Reset = lazy(() => import("./screens/auth/Reset").then((m) => m.Reset));
const OAuthCallback = lazy(() => import("./screens/auth/OAuthCallback").then((m) => m.OAuthCallback));
const Daftar = lazy(() => import("./screens/auth/Daftar").then((m) => m.Daftar));
const Choose = lazy(() => import("./screens/auth/Choose").then((m) => m.Choose));
const Home = lazy(() => import("./screens/home/Home").then((m) => m.Home));
const NotFound = lazy(() => import("./screens/NotFound").then((m) => m.NotFound));
// The resident's screens and the gate's: each area owns the paths under its own (a nested Router).
const Iuran = lazy(() => import("./screens/iuran").then((m) => m.Iuran));
const Surat = lazy(() => import("./screens/surat").then((m) => m.Surat));
const Tamu = lazy(() => import("./screens/tamu").then((m) => m.Tamu));
const Satpam = lazy(() => import("./screens/satpam").then((m) => m.Satpam));
const Musyawarah = lazy(() => import("./screens/musyawarah").then((m) => m.Musyawarah));
const Aspirasi = lazy(() => import("./screens/aspirasi").then((m) => m.Aspirasi));
const Berita = lazy(() => import("./screens/konten").then((m) => m.Berita));
const Pengumuman = lazy(() => import("./screens/konten").then((m) => m.Pengumuman));
const Agenda = lazy(() => import("./screens/konten").then((m) => m.Agenda));
const Galeri = lazy(() => import("./screens/konten").then((m) => m.Galeri));
const Pasar = lazy(() => import("./screens/pasar").then((m) => m.Pasar));
const Asisten = lazy(() => import("./screens/asisten").then((m) => m.Asisten));
const Profil = lazy(() => import("./screens/profil").then((m) => m.Profil));
const Menu = lazy(() => import("./screens/menu").then((m) => m.Menu));
// The committee's console (issue 46): one chunk for its frame, each of its sections another.
const Console = lazy(() => import("./console").then((m) => m.Console));
// The platform operator's console (issue 47): its frame one chunk, each of its areas another.
const Operator = lazy(() => import("./operator").then((m) => m.Operator));

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
const signedInScreens: [string, ComponentType][] = [
  ["/iuran", Iuran],
  ["/surat", Surat],
  ["/tamu", Tamu],
  ["/satpam", Satpam],
  ["/musyawarah", Musyawarah],
  ["/aspirasi", Aspirasi],
  ["/berita", Berita],
  ["/pengumuman", Pengumuman],
  ["/agenda", Agenda],
  ["/galeri", Galeri],
  ["/pasar", Pasar],
  ["/asisten", Asisten],
  ["/profil", Profil],
  ["/menu", Menu],
  ["/pengurus", Console],
  ["/platform", Operator],
];
const areaRoutes = signedInScreens.map(([path, Screen]) => [path, signedIn(Screen)] as const);
const ChooseScreen = signedIn(Choose);
const SignInScreen = signedOut(SignIn);
const MagicRequestScreen = signedOut(MagicLinkRequest);
const ForgotScreen = signedOut(Forgot);
const WhatsappSignInScreen = signedOut(WhatsappSignIn);

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

type Tab = { path: string; key: MessageKey };
const HOME: Tab = { path: "/", key: "nav.home" };
const MORE: Tab = { path: "/menu", key: "nav.menu" };
/** The four places a resident goes most, one thumb away; the rest under "Lainnya" (/menu). */
const RESIDENT_TABS: Tab[] = [
  HOME,
  { path: "/iuran", key: "nav.iuran" },
  { path: "/surat", key: "nav.surat" },
  { path: "/tamu", key: "nav.tamu" },
  MORE,
];
/** A guard who lives elsewhere has one screen of their own: the gate. */
const GUARD_TABS: Tab[] = [HOME, { path: "/satpam", key: "nav.satpam" }, MORE];
const CONSOLE: Tab = { path: "/pengurus", key: "nav.console" };
/**
 * An officer's household and the committee's console are one tap apart: "Pengurus" takes the guests'
 * place (under "Lainnya"), and "Beranda" is the way home (issue 46).
 */
const OFFICER_TABS: Tab[] = [
  HOME,
  { path: "/iuran", key: "nav.iuran" },
  { path: "/surat", key: "nav.surat" },
  CONSOLE,
  MORE,
];

/** A platform operator (no community of their own here) has their console a tap away (issue 47). */
const OPERATOR: Tab = { path: "/platform", key: "nav.operator" };

function tabsOf(user: SessionUser): Tab[] {
  if (user.roles.includes("super_admin") && !user.tenant) {
    return [HOME, OPERATOR, MORE];
  }
  if (isOfficer(user)) {
    return user.resident ? OFFICER_TABS : [HOME, CONSOLE, MORE];
  }
  return user.resident ? RESIDENT_TABS : user.roles.includes("satpam") ? GUARD_TABS : [HOME, MORE];
}

function BottomNav() {
  const session = useSession();
  const { path } = useLocation();
  if (session.status !== "signedIn") {
    return null;
  }
  const tabs = tabsOf(session.user);
  return (
    <nav class="tabs" aria-label={t("nav.main")}>
      {tabs.map((tab) => {
        const here = tab.path === "/" ? path === "/" : path === tab.path || path.startsWith(`${tab.path}/`);
        return (
          <a key={tab.path} href={tab.path} aria-current={here ? "page" : undefined}>
            {t(tab.key)}
          </a>
        );
      })}
    </nav>
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
      <OfflineBanner />
      <main id="main" tabIndex={-1}>
        <ErrorBoundary>
          <Router>
            <Route path="/" component={HomeScreen} />
            <Route path="/login" component={SignInScreen} />
            <Route path="/login/link" component={MagicRequestScreen} />
            <Route path="/auth/magic-link" component={MagicLinkLanding} />
            <Route path="/login/whatsapp" component={WhatsappSignInScreen} />
            <Route path="/auth/code" component={SignInCode} />
            <Route path="/forgot-password" component={ForgotScreen} />
            <Route path="/join" component={Join} />
            <Route path="/reset-password" component={Reset} />
            <Route path="/auth/callback" component={OAuthCallback} />
            <Route path="/daftar/:slug" component={Daftar} />
            <Route path="/communities" component={ChooseScreen} />
            {areaRoutes.flatMap(([path, Screen]) => [
              <Route key={path} path={path} component={Screen} />,
              <Route key={`${path}/*`} path={`${path}/*`} component={Screen} />,
            ])}
            <Route default component={NotFound} />
          </Router>
        </ErrorBoundary>
      </main>
      <BottomNav />
    </LocationProvider>
  );
}
