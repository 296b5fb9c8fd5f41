import { useRoute } from "preact-iso";
import { api } from "../../api/client";
import { date } from "../../format";
import { t, useLanguage } from "../../i18n";
import { AuthImage } from "../../ui/AuthImage";
import { type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";

interface Photo {
  id: string;
  url: string;
  caption: string | null;
}

interface Album {
  id: string;
  title: string;
  description: string | null;
  eventDate: string | null;
  photoCount: number;
  cover: Photo | null;
}

/** `/galeri`: the albums, each with its first photo (read only once it nears the screen). */
export function AlbumList() {
  useLanguage();
  const list = usePaged((cursor) => api.get<Page<Album>>("/api/galeri", { query: { limit: 20, cursor } }));
  return (
    <section aria-labelledby="galeri-title">
      <h1 id="galeri-title">{t("nav.galeri")}</h1>
      <ShowPaged paged={list} empty={t("konten.galeriNone")} lines={4}>
        {(items) => (
          <ul class="albums">
            {items.map((a) => (
              <li key={a.id} class="card album">
                {a.cover ? (
                  <AuthImage src={a.cover.url} alt="" width={400} height={300} />
                ) : (
                  // The count below says it to a screen reader; the box says it to the eye.
                  <span class="auth-image no-photo" style="aspect-ratio: 4 / 3" aria-hidden="true">
                    {t("konten.noPhoto")}
                  </span>
                )}
                <h2>
                  <a href={`/galeri/${a.id}`}>{a.title}</a>
                </h2>
                <p class="muted">
                  {a.eventDate ? `${date(a.eventDate)} · ` : ""}
                  {t("konten.photoCount", { n: a.photoCount })}
                </p>
              </li>
            ))}
          </ul>
        )}
      </ShowPaged>
    </section>
  );
}

/** `/galeri/:id`: an album's photos, lazily read, each box sized before it arrives. */
export function AlbumView() {
  useLanguage();
  const { params } = useRoute();
  const id = params.id ?? "";
  const album = useResource(
    () => api.get<Album & { photos: Photo[] }>(`/api/galeri/${encodeURIComponent(id)}`),
    [id],
  );
  return (
    <section aria-labelledby="album-title">
      <p>
        <a href="/galeri">{t("konten.backGaleri")}</a>
      </p>
      <Show resource={album} lines={6}>
        {(a) => (
          <>
            <h1 id="album-title">{a.title}</h1>
            {(a.eventDate || a.description) && (
              <p class="muted">
                {a.eventDate ? date(a.eventDate) : ""}
                {a.eventDate && a.description ? " · " : ""}
                {a.description ?? ""}
              </p>
            )}
            {a.photos.length === 0 ? (
              <p class="empty">{t("konten.albumEmpty")}</p>
            ) : (
              <ul class="photos">
                {a.photos.map((p, i) => (
                  <li key={p.id}>
                    <figure>
                      <AuthImage
                        src={p.url}
                        alt={
                          p.caption ?? t("konten.photoAlt", { n: i + 1, of: a.photos.length, album: a.title })
                        }
                        width={400}
                        height={300}
                      />
                      {p.caption && <figcaption>{p.caption}</figcaption>}
                    </figure>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </Show>
    </section>
  );
}
