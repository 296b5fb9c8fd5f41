// Demo gallery photos, uploaded through the running API into the albums scripts/seed/galeri.mjs made:
// photos live in R2 behind the file store, which only the API writes. Idempotent: an album that has
// photos is left alone. The pictures are drawn here (a sky, a horizon, a sun), so nothing is downloaded.
import { deflateSync } from "node:zlib";

const PASSWORD = "warga-demo-2026";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) {
    c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  }
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, "ascii");
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A small landscape PNG (RGB), its colours turned by `hue` (0–359) so each photo differs. */
export function demoPhoto(hue, width = 320, height = 240) {
  const rgb = (h, s, l) => {
    const a = s * Math.min(l, 1 - l);
    const f = (n) => {
      const k = (n + h / 30) % 12;
      return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
    };
    return [f(0), f(8), f(4)];
  };
  const horizon = Math.round(height * 0.6);
  const sun = { x: width * 0.7, y: height * 0.3, r: height * 0.12 };
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0;
    for (let x = 0; x < width; x++) {
      const inSun = (x - sun.x) ** 2 + (y - sun.y) ** 2 < sun.r ** 2;
      const [r, g, b] = inSun
        ? rgb(45, 0.9, 0.6)
        : y < horizon
          ? rgb(hue, 0.6, 0.75 - (0.25 * y) / horizon)
          : rgb((hue + 120) % 360, 0.45, 0.35 + (0.1 * (y - horizon)) / (height - horizon));
      raw.set([r, g, b], y * (width * 3 + 1) + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

async function signIn(base, email) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const body = await res.json();
  if (!res.ok) {
    throw new Error(`demo photos: sign-in of ${email} answered ${res.status} ${JSON.stringify(body)}`);
  }
  return { Authorization: `Bearer ${body.accessToken}` };
}

/** Uploads one photo into an album as the holder of `auth`; throws with the API's answer otherwise. */
export async function uploadDemoPhoto(base, auth, albumId, hue, caption) {
  const form = new FormData();
  form.append("file", new Blob([demoPhoto(hue)], { type: "image/png" }), `foto-${hue}.png`);
  if (caption) {
    form.append("caption", caption);
  }
  const res = await fetch(`${base}/api/galeri/${albumId}/foto`, {
    method: "POST",
    headers: { ...auth, "Idempotency-Key": crypto.randomUUID() },
    body: form,
  });
  if (res.status !== 201 && res.status !== 200) {
    throw new Error(`demo photos: upload to ${albumId} answered ${res.status} ${await res.text()}`);
  }
  return res.json();
}

const CAPTIONS = ["Persiapan pagi hari", "Warga bergotong royong", null];

/** Fills the demo albums of rt01 and rt02 that have no photo yet; returns how many photos it added. */
export async function seedPhotos(base) {
  let added = 0;
  for (const rt of ["rt01", "rt02"]) {
    const auth = await signIn(base, `sekretaris.${rt}@warga.test`);
    const albums = await (await fetch(`${base}/api/galeri?limit=100`, { headers: auth })).json();
    for (const album of albums.items ?? []) {
      if (!album.id.startsWith("seed-album-") || album.photoCount > 0) {
        continue;
      }
      for (const [i, caption] of CAPTIONS.entries()) {
        await uploadDemoPhoto(base, auth, album.id, (i * 70 + album.title.length * 13) % 360, caption);
        added++;
      }
    }
  }
  return added;
}
