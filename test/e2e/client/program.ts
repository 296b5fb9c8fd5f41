/**
 * A small client of the Warga API, written the way a console developer writes one: types generated from
 * `/openapi.json` by openapi-typescript (`./schema.js`, written next to this file by
 * test/e2e/client.e2e.test.ts) and openapi-fetch at run time. Compiled with `tsc --strict`, then run
 * against a local API: `WARGA_API_URL` (required), `WARGA_PDF=1` when Chromium can render letters.
 * It prints one JSON line of what it saw; any surprise throws, and the process exits non-zero.
 *
 * It calls paths, never operationIds, so renaming an operation does not break it. The type assertions
 * below make the compile step fail when the document types a binary body as text: a generated client
 * could not send a Blob or would read a PDF as a string.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";

type Problem = components["schemas"]["Problem"];
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;

type Upload = NonNullable<paths["/api/files"]["post"]["requestBody"]>["content"]["multipart/form-data"];
type LetterPdf = paths["/api/surat/{id}/pdf"]["get"]["responses"][200]["content"]["application/pdf"];
type RegistryXlsx =
  paths["/api/kependudukan/export"]["get"]["responses"][200]["content"]["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"];

/** The document types the image part of an upload as binary: a Blob (or a File from an input) fits. */
export type UploadTakesABlob = Assert<Equals<Upload["file"], Blob>>;
/** …and the PDF and the spreadsheet as binary answers, not strings. */
export type PdfIsBinary = Assert<Equals<LetterPdf, Blob>>;
export type XlsxIsBinary = Assert<Equals<RegistryXlsx, Blob>>;
/** A problem's `code` is the closed list of the document, not any string. */
export type CodeIsClosed = Assert<Equals<string extends Problem["code"] ? true : false, false>>;

const baseUrl = process.env.WARGA_API_URL;
if (!baseUrl) {
  throw new Error("WARGA_API_URL is not set");
}
const PASSWORD = "warga-demo-2026";
const seen: Record<string, unknown> = {};
/** Progress on stderr: where a failed or stuck run stopped. */
const step = (what: string) => console.error(`client: ${what}`);

function check(ok: boolean, what: string): asserts ok {
  if (!ok) {
    throw new Error(`client check failed: ${what}`);
  }
}

const anonymous = createClient<paths>({ baseUrl, headers: { "Accept-Language": "id" } });

/** Signs in as a demo account and returns a client that sends its bearer token. */
async function signIn(email: string) {
  const { data, error } = await anonymous.POST("/api/auth/login", { body: { email, password: PASSWORD } });
  if (error) {
    throw new Error(`sign-in as ${email}: ${error.status} ${error.code}`);
  }
  return createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${data.accessToken}`, "Accept-Language": "id" },
  });
}

step("signing in");
const warga = await signIn("warga1.rt01@warga.test");
const sekretaris = await signIn("sekretaris.rt01@warga.test");
seen.signedIn = true;

step("uploading a Blob");
// Upload: a 1×1 PNG as a Blob, in a multipart body the client builds from the typed object.
const png = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const upload = await warga.POST("/api/files", {
  body: { file: new Blob([png], { type: "image/png" }), purpose: "pengaduan" },
  bodySerializer(body) {
    check(body !== undefined, "a body to send");
    const form = new FormData();
    form.set("file", body.file, "foto.png");
    form.set("purpose", body.purpose);
    return form;
  },
});
check(upload.response.status === 201, `upload answered ${upload.response.status}`);
check(upload.data?.contentType === "image/png", "the upload is stored as a PNG");
seen.upload = {
  status: upload.response.status,
  contentType: upload.data.contentType,
  size: upload.data.size,
};

step("downloading the xlsx export");
// Binary answers: the registry as xlsx (always), and a finished letter's PDF where Chromium renders it.
const xlsx = await sekretaris.GET("/api/kependudukan/export", {
  params: { query: { format: "xlsx" } },
  parseAs: "blob",
});
check(xlsx.data instanceof Blob, `the export answered ${xlsx.response.status}`);
const zipMagic = new Uint8Array(await xlsx.data.slice(0, 2).arrayBuffer());
check(zipMagic[0] === 0x50 && zipMagic[1] === 0x4b, "the xlsx is a zip (PK)");
seen.xlsx = { status: xlsx.response.status, bytes: xlsx.data.size };

if (process.env.WARGA_PDF === "1") {
  step("finishing a letter and downloading its PDF");
  const created = await warga.POST("/api/surat", {
    body: {
      jenis: "belum_menikah",
      onBehalfOf: "self",
      keperluan: "Uji klien yang dibangkitkan",
      fields: {},
    },
  });
  check(created.data !== undefined, `the letter request answered ${created.response.status}`);
  const id = created.data.id;
  const path = { params: { path: { id } } };
  await sekretaris.PUT("/api/surat/{id}", { ...path, body: { status: "diproses" } });
  const next = await sekretaris.GET("/api/surat/next-number", {
    params: { query: { jenis: "belum_menikah" } },
  });
  check(next.data !== undefined, `next-number answered ${next.response.status}`);
  // Today in Asia/Jakarta (UTC+7), as the letter's date.
  const today = new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);
  const finished = await sekretaris.PUT("/api/surat/{id}", {
    ...path,
    body: { status: "selesai", nomorSurat: next.data.nomorSurat, tanggalSurat: today },
  });
  check(finished.data?.status === "selesai", `finishing the letter answered ${finished.response.status}`);
  // The demo RT has the RW's acknowledgement on: the resident waits for the RW (a problem by its code),
  // the RT's secretary prints it meanwhile (issue 45).
  const waiting = await warga.GET("/api/surat/{id}/pdf", { ...path, parseAs: "blob" });
  const waitingCode = (waiting.error as { code?: string } | undefined)?.code;
  check(
    waiting.response.status === 409 && waitingCode === "awaiting_rw_acknowledgement",
    `the resident's PDF before the RW acknowledged answered ${waiting.response.status} ${waitingCode}`,
  );
  const pdf = await sekretaris.GET("/api/surat/{id}/pdf", { ...path, parseAs: "blob" });
  check(pdf.data instanceof Blob, `the PDF answered ${pdf.response.status}`);
  const magic = new TextDecoder().decode(await pdf.data.slice(0, 5).arrayBuffer());
  check(magic === "%PDF-", `the PDF starts with ${JSON.stringify(magic)}`);
  seen.pdf = { status: pdf.response.status, bytes: pdf.data.size };
}

step("paging the letters");
// A list paged to its end by nextCursor, one at a time: the same letters as one page of all of them.
const paged: string[] = [];
let cursor: string | undefined;
let pages = 0;
do {
  check(pages < 100, "the list ends");
  const { data, error } = await sekretaris.GET("/api/surat", { params: { query: { limit: 1, cursor } } });
  if (error) {
    throw new Error(`page ${pages + 1}: ${error.status} ${error.code}`);
  }
  pages++;
  paged.push(...data.items.map((letter) => letter.id));
  cursor = data.nextCursor ?? undefined;
} while (cursor !== undefined);
const whole = await sekretaris.GET("/api/surat", { params: { query: { limit: 100 } } });
check(whole.data !== undefined, "one page of every letter");
check(new Set(paged).size === paged.length, "no letter on two pages");
check(
  JSON.stringify(paged) === JSON.stringify(whole.data.items.map((letter) => letter.id)),
  "the pages hold the same letters, in the same order, as one page of all",
);
seen.paging = { letters: paged.length, pages };

/** What a console does with a problem: decides by its code (the document's closed list), not its text. */
function handle(problem: Problem): "missing" | "not_yet" | "other" {
  switch (problem.code) {
    case "not_found":
      return "missing";
    case "letter_not_ready":
      return "not_yet";
    default:
      return "other";
  }
}

step("handling problems");
const missing = await warga.GET("/api/surat/{id}/pdf", { params: { path: { id: "tidak-ada" } } });
check(missing.error !== undefined && missing.response.status === 404, "an unknown letter is 404");
check(handle(missing.error) === "missing", `the 404 is handled by its code (${missing.error.code})`);
check(
  missing.response.headers.get("content-type")?.startsWith("application/problem+json") === true,
  "the 404 is problem+json",
);
// A letter still being processed has no PDF yet: 409 by its own code.
const pending = whole.data.items.find((letter) => letter.status === "diajukan");
check(pending !== undefined, "a letter still diajukan");
const early = await sekretaris.GET("/api/surat/{id}/pdf", { params: { path: { id: pending.id } } });
check(early.error !== undefined && early.response.status === 409, `an unfinished letter's PDF is 409`);
check(handle(early.error) === "not_yet", `the 409 is handled by its code (${early.error.code})`);
seen.problems = { 404: missing.error.code, 409: early.error.code, detail: early.error.detail };

console.log(JSON.stringify(seen));
