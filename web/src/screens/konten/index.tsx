import { Route, Router } from "preact-iso";
import { NotFound } from "../NotFound";
import { AgendaList } from "./Agenda";
import { AlbumList, AlbumView } from "./Galeri";
import { Announcement, AnnouncementList, Article, ArticleList } from "./Tulisan";

/**
 * The community's news and pictures, one area per list, each owning its paths: `/pengumuman[/:id]`,
 * `/berita[/:id]`, `/agenda`, `/galeri[/:id]`. Read-only for residents; the secretariat writes them
 * (its console is part 2).
 */
export function Pengumuman() {
  return (
    <Router>
      <Route path="/" component={AnnouncementList} />
      <Route path="/:id" component={Announcement} />
      <Route default component={NotFound} />
    </Router>
  );
}

export function Berita() {
  return (
    <Router>
      <Route path="/" component={ArticleList} />
      <Route path="/:id" component={Article} />
      <Route default component={NotFound} />
    </Router>
  );
}

export function Agenda() {
  return (
    <Router>
      <Route path="/" component={AgendaList} />
      <Route default component={NotFound} />
    </Router>
  );
}

export function Galeri() {
  return (
    <Router>
      <Route path="/" component={AlbumList} />
      <Route path="/:id" component={AlbumView} />
      <Route default component={NotFound} />
    </Router>
  );
}
