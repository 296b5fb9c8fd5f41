// Letter PDFs through `wrangler dev` with Browser Rendering on the local Chromium: the first request of
// each finished letter renders it (launch, render, close, store in R2); later requests serve the stored
// copy. Prints first-render times, and the cached serve p50 as a ratio over the render, in one run.
import { startDevServer } from "../lib/dev-server.mjs";
import { STATE_DIR } from "../lib/wrangler.mjs";
import { prepareBenchState } from "./server.mjs";

const LETTERS = Number(process.env.BENCH_LETTERS ?? 5);
const CACHED = Number(process.env.BENCH_CACHED ?? 50);
const PASSWORD = "warga-demo-2026";

const pct = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function api(base, path, { token, method, body } = {}) {
  const res = await fetch(`${base}${path}`, {
    method: method ?? (body ? "POST" : "GET"),
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body ? { "Content-Type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) {
    throw new Error(`${method ?? "GET"} ${path}: ${res.status} ${text}`);
  }
  return text ? JSON.parse(text) : null;
}

const login = (base, email) =>
  api(base, "/api/auth/login", { body: { email, password: PASSWORD } }).then((r) => r.accessToken);

async function finishedLetter(base, warga, sek) {
  const letter = await api(base, "/api/surat", {
    token: warga,
    body: { jenis: "belum_menikah", onBehalfOf: "self", keperluan: "Benchmark PDF", fields: {} },
  });
  await api(base, `/api/surat/${letter.id}`, { token: sek, method: "PUT", body: { status: "diproses" } });
  const { nomorSurat } = await api(base, "/api/surat/next-number?jenis=belum_menikah", { token: sek });
  const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
  await api(base, `/api/surat/${letter.id}`, {
    token: sek,
    method: "PUT",
    body: { status: "selesai", nomorSurat, tanggalSurat: today },
  });
  return letter.id;
}

async function timedPdf(base, id, token) {
  const started = performance.now();
  const res = await fetch(`${base}/api/surat/${id}/pdf`, { headers: { Authorization: `Bearer ${token}` } });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - started;
  if (res.status !== 200 || String.fromCharCode(...bytes.slice(0, 5)) !== "%PDF-") {
    throw new Error(`PDF answered ${res.status}: ${new TextDecoder().decode(bytes.slice(0, 300))}`);
  }
  return { ms, source: res.headers.get("X-Pdf-Source"), size: bytes.length };
}

export async function run() {
  await prepareBenchState();
  const server = await startDevServer({ persistTo: STATE_DIR });
  try {
    const base = server.url;
    const [warga, sek, admin] = await Promise.all(
      ["warga1.rt01@warga.test", "sekretaris.rt01@warga.test", "admin.rt01@warga.test"].map((e) =>
        login(base, e),
      ),
    );
    await api(base, "/api/surat/settings", {
      token: admin,
      method: "PUT",
      // Every setting a letter needs before it can be numbered and finished (surat's SETTING_NAMES).
      body: {
        rt: "1",
        rw: "5",
        kelurahan: "Sukamaju",
        kecamatan: "Cibeunying Kidul",
        kota: "Bandung",
        provinsi: "Jawa Barat",
        headName: "Ketua RT 01",
        address: "Jl. Sukamaju",
        // The demo's RT 01 waits for its RW before the resident gets a letter (issue 45): the bench times
        // the resident's own downloads, so its letters are the RT's alone.
        rwAcknowledgement: false,
      },
    });
    const renders = [];
    const ids = [];
    for (let i = 0; i < LETTERS; i++) {
      const id = await finishedLetter(base, warga, sek);
      const first = await timedPdf(base, id, warga);
      if (first.source !== "render") {
        throw new Error(`first request of a new letter came from ${first.source}`);
      }
      renders.push(first.ms);
      ids.push(id);
    }
    const cached = [];
    for (let i = 0; i < CACHED; i++) {
      const hit = await timedPdf(base, ids[i % ids.length], warga);
      if (hit.source !== "r2") {
        throw new Error(`repeat request was ${hit.source}, not served from R2`);
      }
      cached.push(hit.ms);
    }
    const renderP50 = pct(renders, 50);
    const cachedP50 = pct(cached, 50);
    console.log(
      `\nLetter PDF via wrangler dev + local Chromium (${LETTERS} letters, ${CACHED} cached requests)`,
    );
    console.log(
      `first render (launch + render + R2 put), ms: ${renders.map((m) => m.toFixed(0)).join(", ")}`,
    );
    console.log(`first PDF render: first ${renders[0].toFixed(0)} ms, p50 ${renderP50.toFixed(0)} ms`);
    console.log(`cached PDF from R2: p50 ${cachedP50.toFixed(1)} ms, p99 ${pct(cached, 99).toFixed(1)} ms`);
    console.log(
      `cached p50 / render p50 = ${(cachedP50 / renderP50).toFixed(3)} (render is ${(renderP50 / cachedP50).toFixed(0)}× the cached serve)`,
    );
    return { renders, cached, ratio: cachedP50 / renderP50 };
  } finally {
    await server.stop();
  }
}
