import { useEffect, useState } from "preact/hooks";
import { api } from "../api/client";

/**
 * An image the API serves behind the session (`GET /api/files/:id`): the access token lives in memory,
 * so a plain `<img src>` would be refused; the bytes come through the API client and are shown from a
 * blob: URL, freed when the image leaves the screen. The box keeps its size while loading (`class`
 * sets it), so nothing shifts when the photo arrives.
 */
export function ApiImage({ url, alt, class: className }: { url: string; alt: string; class?: string }) {
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    let objectUrl: string | null = null;
    setSrc(null);
    setFailed(false);
    // The API answers an absolute URL on its own origin (APP_URL); the app reaches it by path.
    const path = new URL(url, location.origin).pathname;
    api.blob(path).then(
      (blob) => {
        if (live) {
          objectUrl = URL.createObjectURL(blob);
          setSrc(objectUrl);
        }
      },
      () => live && setFailed(true),
    );
    return () => {
      live = false;
      if (objectUrl) {
        URL.revokeObjectURL(objectUrl);
      }
    };
  }, [url]);
  const box = `photo ${className ?? ""}`.trim();
  if (!src) {
    // A placeholder of the same size; a photo that cannot be loaded leaves its text alternative
    // (a decorative one, beside its own caption, leaves nothing).
    return alt ? (
      <span
        class={`${box} photo-placeholder`}
        role="img"
        aria-label={alt}
        aria-busy={failed ? undefined : "true"}
      />
    ) : (
      <span class={`${box} photo-placeholder`} aria-hidden="true" />
    );
  }
  return <img class={box} src={src} alt={alt} />;
}
