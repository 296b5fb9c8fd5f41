// A cover picture on each RT's demo news article, through the running API: the picture goes to R2 as a
// `sampul` upload, then the article is edited to point at it (If-Match, as any edit). Idempotent: an
// article that has a cover is left alone.
import { demoPhoto } from "./galeri.mjs";

const PASSWORD = "warga-demo-2026";

async function signIn(base, email) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const body = await res.json();
  if (!res.ok) {
    throw new Error(`demo covers: sign-in of ${email} answered ${res.status} ${JSON.stringify(body)}`);
  }
  return { Authorization: `Bearer ${body.accessToken}` };
}

/** Gives the news article `id` a drawn cover as the holder of `auth`, unless it has one; true if it did. */
export async function setDemoCover(base, auth, id, hue) {
  const read = await fetch(`${base}/api/berita/${id}`, { headers: auth });
  if (!read.ok) {
    throw new Error(`demo covers: reading ${id} answered ${read.status} ${await read.text()}`);
  }
  if ((await read.json()).cover) {
    return false;
  }
  const form = new FormData();
  form.append("purpose", "sampul");
  form.append("file", new Blob([demoPhoto(hue, 640, 360)], { type: "image/png" }), "sampul.png");
  const upload = await fetch(`${base}/api/files`, {
    method: "POST",
    headers: { ...auth, "Idempotency-Key": crypto.randomUUID() },
    body: form,
  });
  if (upload.status !== 201) {
    throw new Error(`demo covers: upload answered ${upload.status} ${await upload.text()}`);
  }
  const file = await upload.json();
  const edit = await fetch(`${base}/api/berita/${id}`, {
    method: "PUT",
    headers: { ...auth, "Content-Type": "application/json", "If-Match": read.headers.get("ETag") ?? "*" },
    body: JSON.stringify({ coverFileId: file.id }),
  });
  if (!edit.ok) {
    throw new Error(`demo covers: editing ${id} answered ${edit.status} ${await edit.text()}`);
  }
  return true;
}

/** Covers the kerja bakti article of rt01 and rt02 (scripts/seed/konten.mjs); returns how many it set. */
export async function seedCovers(base) {
  let set = 0;
  for (const rt of ["rt01", "rt02"]) {
    const auth = await signIn(base, `sekretaris.${rt}@warga.test`);
    const slug = rt === "rt01" ? "rt-01-sukamaju" : "rt-02-sukamaju";
    if (await setDemoCover(base, auth, `seed-berita-${slug}-kerja-bakti`, 190)) {
      set++;
    }
  }
  return set;
}
