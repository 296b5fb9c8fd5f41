import { useRef } from "preact/hooks";
import { api, newIdempotencyKey } from "./client";

/** What POST /api/files answers: the id and the URL to put in the record that uses the file. */
export interface Uploaded {
  id: string;
  url: string;
  contentType: string;
}

/**
 * Uploads a form's photos (`POST /api/files`) for one purpose. A photo already uploaded is not sent
 * again when the form's own write is retried, and a retried upload carries the same Idempotency-Key:
 * a failure at any step costs neither a second copy nor what the person chose.
 */
export function useUploader(purpose: "pengaduan" | "pasar") {
  const stored = useRef(new WeakMap<File, Uploaded>());
  const keys = useRef(new WeakMap<File, string>());
  return async (file: File): Promise<Uploaded> => {
    const known = stored.current.get(file);
    if (known) {
      return known;
    }
    let key = keys.current.get(file);
    if (!key) {
      key = newIdempotencyKey();
      keys.current.set(file, key);
    }
    const form = new FormData();
    form.set("purpose", purpose);
    form.set("file", file, file.name);
    const uploaded = await api.upload<Uploaded>("/api/files", form, { idempotencyKey: key });
    stored.current.set(file, uploaded);
    return uploaded;
  };
}
