import { Route, Router, useLocation } from "preact-iso";
import { useLanguage } from "../../i18n";
import { AgendaEditor, AgendaList } from "./Agenda";
import { ComplaintDetail, Complaints } from "./Complaints";
import "./content.css";
import { Listings } from "./Listings";
import { PostEditor } from "./PostEditor";
import { Posts } from "./Posts";
import { Proposals } from "./Proposals";
import { Suggestions } from "./Suggestions";
import { tx } from "./text";

const BASE = "/pengurus/konten";

/** The pages of the section, one tap apart (a row of links above each screen). */
function Tabs() {
  const { path } = useLocation();
  const tabs = [
    { href: BASE, label: tx("tabPengumuman"), also: `${BASE}/pengumuman` },
    { href: `${BASE}/berita`, label: tx("tabBerita") },
    { href: `${BASE}/agenda`, label: tx("tabAgenda") },
    { href: `${BASE}/pengaduan`, label: tx("tabPengaduan") },
    { href: `${BASE}/saran`, label: tx("tabSaran") },
    { href: `${BASE}/usulan`, label: tx("tabUsulan") },
    { href: `${BASE}/pasar`, label: tx("tabPasar") },
  ];
  const here = (t: { href: string; also?: string }) =>
    path === t.href ||
    (t.href !== BASE && path.startsWith(`${t.href}/`)) ||
    (t.href === BASE && path === `${BASE}/`) ||
    (t.also !== undefined && path.startsWith(t.also));
  return (
    <nav class="konten-tabs" aria-label={tx("tabs")}>
      <ul>
        {tabs.map((t) => (
          <li key={t.href}>
            <a href={t.href} aria-current={here(t) ? "page" : undefined}>
              {t.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const Announcements = () => <Posts kind="pengumuman" />;
const News = () => <Posts kind="berita" />;
const NewAnnouncement = () => <PostEditor kind="pengumuman" />;
const NewNews = () => <PostEditor kind="berita" />;
const EditAnnouncement = ({ params }: { params: { id: string } }) => (
  <PostEditor kind="pengumuman" id={params.id} />
);
const EditNews = ({ params }: { params: { id: string } }) => <PostEditor kind="berita" id={params.id} />;

/**
 * `/pengurus/konten`: what the secretariat publishes (announcements with their channels and a preview,
 * news) and what residents send (complaints, suggestions, proposals), and the marketplace's moderation
 * (issue 46 item 7).
 */
export function Content() {
  useLanguage();
  return (
    <div class="konten">
      <Tabs />
      <Router>
        <Route path="/" component={Announcements} />
        <Route path="/pengumuman/baru" component={NewAnnouncement} />
        <Route path="/pengumuman/:id" component={EditAnnouncement} />
        <Route path="/berita" component={News} />
        <Route path="/berita/baru" component={NewNews} />
        <Route path="/berita/:id" component={EditNews} />
        <Route path="/agenda" component={AgendaList} />
        <Route path="/agenda/:id" component={AgendaEditor} />
        <Route path="/pengaduan" component={Complaints} />
        <Route path="/pengaduan/:id" component={ComplaintDetail} />
        <Route path="/saran" component={Suggestions} />
        <Route path="/usulan" component={Proposals} />
        <Route path="/pasar" component={Listings} />
      </Router>
    </div>
  );
}
