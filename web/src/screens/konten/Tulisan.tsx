import { useRoute } from "preact-iso";
import { api } from "../../api/client";
import { date } from "../../format";
import { t, useLanguage } from "../../i18n";
import { AuthImage } from "../../ui/AuthImage";
import { type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";

/** The written pieces: announcements (pengumuman) and news (berita), each a list and a page. */

interface Pengumuman {
  id: string;
  title: string;
  bodyHtml: string;
  urgent: boolean;
  publishedAt: string | null;
  createdAt: string;
}

interface Berita {
  id: string;
  title: string;
  bodyHtml: string;
  cover: { id: string; url: string } | null;
  publishedAt: string | null;
  createdAt: string;
}

const published = (x: { publishedAt: string | null; createdAt: string }) =>
  date(x.publishedAt ?? x.createdAt);

/** The API's HTML: rendered from Markdown and sanitised on the server (no raw HTML, no scripts). */
function Body({ html }: { html: string }) {
  // Trusted as HTML because the API sanitised it (src/modules/konten/markdown.ts), never text from here.
  return <div class="prose" dangerouslySetInnerHTML={{ __html: html }} />;
}

/**
 * `/pengumuman`: newest first as the API pages them; of what has arrived, the urgent ones come first and
 * are marked, so a water cut is not below last month's dues reminder.
 */
export function AnnouncementList() {
  useLanguage();
  const list = usePaged((cursor) =>
    api.get<Page<Pengumuman>>("/api/pengumuman", { query: { limit: 20, cursor } }),
  );
  return (
    <section aria-labelledby="pengumuman-title">
      <h1 id="pengumuman-title">{t("nav.pengumuman")}</h1>
      <ShowPaged paged={list} empty={t("konten.pengumumanNone")} lines={4}>
        {(items) => (
          <ul class="konten-list">
            {[...items.filter((p) => p.urgent), ...items.filter((p) => !p.urgent)].map((p) => (
              <li key={p.id} class={p.urgent ? "card urgent" : "card"}>
                <h2>
                  <a href={`/pengumuman/${p.id}`}>{p.title}</a>
                </h2>
                <p class="meta">
                  {p.urgent && <span class="badge badge-urgent">{t("konten.urgent")}</span>}
                  <span class="muted">{published(p)}</span>
                </p>
              </li>
            ))}
          </ul>
        )}
      </ShowPaged>
    </section>
  );
}

/** `/pengumuman/:id`. */
export function Announcement() {
  useLanguage();
  const { params } = useRoute();
  const id = params.id ?? "";
  const item = useResource(() => api.get<Pengumuman>(`/api/pengumuman/${encodeURIComponent(id)}`), [id]);
  return (
    <article aria-labelledby="pengumuman-item">
      <p>
        <a href="/pengumuman">{t("konten.backPengumuman")}</a>
      </p>
      <Show resource={item} lines={6}>
        {(p) => (
          <>
            <h1 id="pengumuman-item">{p.title}</h1>
            <p class="meta">
              {p.urgent && <span class="badge badge-urgent">{t("konten.urgent")}</span>}
              <span class="muted">{published(p)}</span>
            </p>
            <Body html={p.bodyHtml} />
          </>
        )}
      </Show>
    </article>
  );
}

/** `/berita`: published news, newest first, each with its cover where it has one. */
export function ArticleList() {
  useLanguage();
  const list = usePaged((cursor) => api.get<Page<Berita>>("/api/berita", { query: { limit: 20, cursor } }));
  return (
    <section aria-labelledby="berita-title">
      <h1 id="berita-title">{t("nav.berita")}</h1>
      <ShowPaged paged={list} empty={t("konten.beritaNone")} lines={4}>
        {(items) => (
          <ul class="konten-list">
            {items.map((b) => (
              <li key={b.id} class="card berita-card">
                {b.cover && <AuthImage src={b.cover.url} alt="" width={160} height={90} class="thumb" />}
                <div>
                  <h2>
                    <a href={`/berita/${b.id}`}>{b.title}</a>
                  </h2>
                  <p class="muted">{published(b)}</p>
                </div>
              </li>
            ))}
          </ul>
        )}
      </ShowPaged>
    </section>
  );
}

/** `/berita/:id`: the article with its cover image. */
export function Article() {
  useLanguage();
  const { params } = useRoute();
  const id = params.id ?? "";
  const item = useResource(() => api.get<Berita>(`/api/berita/${encodeURIComponent(id)}`), [id]);
  return (
    <article aria-labelledby="berita-item">
      <p>
        <a href="/berita">{t("konten.backBerita")}</a>
      </p>
      <Show resource={item} lines={8}>
        {(b) => (
          <>
            <h1 id="berita-item">{b.title}</h1>
            <p class="muted">{published(b)}</p>
            {b.cover && (
              <AuthImage
                src={b.cover.url}
                alt={t("konten.coverOf", { title: b.title })}
                width={640}
                height={360}
              />
            )}
            <Body html={b.bodyHtml} />
          </>
        )}
      </Show>
    </article>
  );
}
