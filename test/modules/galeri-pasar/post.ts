import { call } from "../../helpers/harness";

export interface StoredFile {
  id: string;
  url: string;
  purpose: string;
  contentType: string;
  size: number;
  sha256: string;
  uploadedBy: string;
  metadataRemoved: string[];
}

/** Posts one file (in `field`, default `file`) and extra text fields as multipart, as an app would. */
export async function postFile(
  path: string,
  opts: {
    token: string;
    bytes: Uint8Array;
    name: string;
    type: string;
    field?: string;
    fields?: Record<string, string>;
    headers?: Record<string, string>;
  },
) {
  const form = new FormData();
  form.set(opts.field ?? "file", new File([opts.bytes], opts.name, { type: opts.type }));
  for (const [key, value] of Object.entries(opts.fields ?? {})) {
    form.set(key, value);
  }
  const res = await call(path, { token: opts.token, body: form, headers: opts.headers });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: (res.headers.get("Content-Type")?.includes("json") && text ? JSON.parse(text) : text) as unknown,
  };
}
