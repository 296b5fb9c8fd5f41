import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api/client";

/**
 * An image the API serves to members only (`GET /api/files/:id` needs the bearer token, which an `<img src>`
 * cannot send): read through the API client as a Blob once it comes near the screen, shown from an object
 * URL. The box has its size from `width`/`height` (the aspect ratio) before the bytes arrive, so nothing
 * shifts; a failed read leaves the empty box with its alt text read out.
 */
export function AuthImage(props: {
  src: string;
  alt: string;
  width: number;
  height: number;
  class?: string;
}) {
  const box = useRef<HTMLSpanElement>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  // The API answers absolute URLs on its own origin; the client is same-origin, so the path is enough.
  const path = pathOf(props.src);
  useEffect(() => {
    let live = true;
    let made: string | null = null;
    const load = () => {
      api.blob(path).then(
        (blob) => {
          if (live) {
            made = URL.createObjectURL(blob);
            setUrl(made);
          }
        },
        () => live && setFailed(true),
      );
    };
    const el = box.current;
    let observer: IntersectionObserver | undefined;
    if (el && typeof IntersectionObserver !== "undefined") {
      observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) {
            observer?.disconnect();
            load();
          }
        },
        { rootMargin: "200px" },
      );
      observer.observe(el);
    } else {
      load();
    }
    return () => {
      live = false;
      observer?.disconnect();
      if (made) {
        URL.revokeObjectURL(made);
      }
    };
  }, [path]);
  const style = `aspect-ratio: ${props.width} / ${props.height}`;
  return (
    <span ref={box} class={`auth-image ${props.class ?? ""}`} style={style}>
      {url ? (
        <img src={url} alt={props.alt} width={props.width} height={props.height} decoding="async" />
      ) : (
        // Until the bytes arrive the box stands in for the image: named as it will be, or hidden when decorative.
        <span
          {...(props.alt ? { role: "img", "aria-label": props.alt } : { "aria-hidden": "true" })}
          data-state={failed ? "failed" : "loading"}
        />
      )}
    </span>
  );
}

function pathOf(src: string): string {
  try {
    const u = new URL(src, location.origin);
    return u.origin === location.origin || u.pathname.startsWith("/api/") ? u.pathname : src;
  } catch {
    return src;
  }
}
