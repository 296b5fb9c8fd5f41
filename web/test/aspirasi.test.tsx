import { fireEvent, screen, waitFor } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { Aspirasi } from "../src/screens/aspirasi";
import { openArea } from "./area";
import { fake, problem, signedInAs, useFakeApi } from "./fake-api";

useFakeApi();

const complaint = (over: Record<string, unknown> = {}) => ({
  id: "C1",
  residentId: "u1",
  title: "Lampu jalan mati",
  description: "Gelap sejak tiga hari",
  category: "infrastruktur",
  photo: null,
  location: null,
  status: "baru",
  thread: [],
  createdAt: "2026-11-20T01:00:00Z",
  updatedAt: "2026-11-20T01:00:00Z",
  ...over,
});
const proposal = (over: Record<string, unknown> = {}) => ({
  id: "P1",
  residentId: "u2",
  title: "Pasang CCTV",
  description: "Dua kamera",
  estimatedCost: 3500000,
  status: "diajukan",
  note: null,
  endorsements: 2,
  endorsedByMe: false,
  createdAt: "2026-11-20T01:00:00Z",
  updatedAt: "2026-11-20T01:00:00Z",
  ...over,
});
const type = (label: string, value: string) =>
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
const png = () => new File([new Uint8Array([137, 80, 78, 71])], "lampu.png", { type: "image/png" });

describe("a complaint with a photo", () => {
  it("uploads the photo once, sends its URL with the complaint, and a retry after a failure re-sends neither the photo nor a new key", async () => {
    await signedInAs();
    fake.routes["POST /api/files"] = {
      status: 201,
      body: { id: "F1", url: "https://warga.example/api/files/F1", contentType: "image/png" },
    };
    let calls = 0;
    fake.routes["POST /api/pengaduan"] = () =>
      ++calls === 1
        ? {
            status: 400,
            body: {
              ...(problem(400, "invalid_input", "Periksa isian").body as object),
              errors: [{ field: "description", message: "Terlalu pendek" }],
            },
          }
        : { status: 201, body: complaint({ photo: "https://warga.example/api/files/F1" }) };
    fake.routes["/api/pengaduan/C1"] = {
      status: 200,
      body: complaint({ photo: "https://warga.example/api/files/F1" }),
    };
    fake.routes["/api/files/F1"] = { status: 200, body: "img" };
    openArea("/aspirasi", Aspirasi, "/aspirasi/pengaduan/baru");
    type("Judul pengaduan", "Lampu jalan mati");
    type("Kategori", "infrastruktur");
    type("Uraian", "Gelap");
    // The camera and the gallery: both offered, each a labelled file input.
    const camera = screen.getByLabelText("Ambil foto") as HTMLInputElement;
    expect(camera.hasAttribute("capture")).toBe(true);
    fireEvent.change(screen.getByLabelText("Pilih dari galeri"), { target: { files: [png()] } });
    expect(await screen.findByRole("img", { name: "Foto 1 yang dipilih" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Kirim" }));
    expect(await screen.findByText("Terlalu pendek")).toBeTruthy();
    expect((screen.getByLabelText("Uraian") as HTMLTextAreaElement).value).toBe("Gelap");
    expect(screen.getByRole("img", { name: "Foto 1 yang dipilih" })).toBeTruthy();
    type("Uraian", "Gelap sejak tiga hari");
    fireEvent.click(screen.getByRole("button", { name: "Kirim" }));
    await waitFor(() => expect(location.pathname).toBe("/aspirasi/pengaduan/C1"));
    const uploads = fake.seen.filter((s) => s.path === "/api/files" && s.method === "POST");
    expect(uploads).toHaveLength(1);
    const form = uploads[0]?.body as FormData;
    expect(form.get("purpose")).toBe("pengaduan");
    const posts = fake.seen.filter((s) => s.path === "/api/pengaduan" && s.method === "POST");
    expect(posts).toHaveLength(2);
    expect(posts[1]?.headers.get("Idempotency-Key")).toBe(posts[0]?.headers.get("Idempotency-Key"));
    expect(JSON.parse(String(posts[1]?.body))).toEqual({
      title: "Lampu jalan mati",
      category: "infrastruktur",
      description: "Gelap sejak tiga hari",
      photo: "https://warga.example/api/files/F1",
    });
    // The detail loads the photo through the API by path (the session's token goes with it).
    await waitFor(() => expect(fake.seen.some((s) => s.path === "/api/files/F1")).toBe(true));
  });
});

describe("the aspirasi overview", () => {
  it("lists my complaints with their status and the proposals; endorsing shows the new count", async () => {
    await signedInAs();
    fake.routes["/api/pengaduan/mine"] = {
      status: 200,
      body: { items: [complaint({ status: "diproses" })] },
    };
    fake.routes["/api/usulan"] = {
      status: 200,
      body: { items: [proposal(), proposal({ id: "P2", residentId: "u1", title: "Usulan saya" })] },
    };
    fake.routes["POST /api/usulan/P1/dukung"] = {
      status: 200,
      body: proposal({ endorsements: 3, endorsedByMe: true }),
    };
    openArea("/aspirasi", Aspirasi, "/aspirasi");
    expect(await screen.findByRole("link", { name: /Lampu jalan mati/ })).toBeTruthy();
    expect(screen.getByText("diproses")).toBeTruthy();
    expect((await screen.findAllByText("Perkiraan biaya: Rp3.500.000")).length).toBe(2);
    // One's own proposal cannot be endorsed: only the other one has the button.
    expect(screen.getAllByRole("button", { name: /^Dukung usulan/ })).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: "Dukung usulan Pasang CCTV" }));
    expect(await screen.findByText("Anda mendukung usulan ini.")).toBeTruthy();
    expect(screen.getByText(/3 dukungan/)).toBeTruthy();
  });

  it("says when there are no complaints, and shows a failed list with a retry", async () => {
    await signedInAs();
    fake.routes["/api/pengaduan/mine"] = { status: 200, body: { items: [] } };
    fake.routes["/api/usulan"] = problem(500, "internal", "Terjadi kesalahan");
    openArea("/aspirasi", Aspirasi, "/aspirasi");
    expect(await screen.findByText("Anda belum pernah membuat pengaduan.")).toBeTruthy();
    expect((await screen.findByRole("alert")).textContent).toContain("Terjadi kesalahan");
    expect(screen.getByRole("button", { name: "Coba lagi" })).toBeTruthy();
  });
});

describe("a suggestion", () => {
  it("is sent anonymously when asked, and thanked for", async () => {
    await signedInAs();
    fake.routes["POST /api/saran"] = { status: 201, body: { id: "S1", anonymous: true, createdAt: "x" } };
    openArea("/aspirasi", Aspirasi, "/aspirasi/saran");
    type("Saran Anda", "Senam pagi dua kali seminggu");
    fireEvent.click(screen.getByRole("checkbox", { name: "Kirim tanpa nama" }));
    fireEvent.click(screen.getByRole("button", { name: "Kirim" }));
    expect(await screen.findByText(/saran Anda sudah terkirim/)).toBeTruthy();
    const sent = fake.seen.find((s) => s.path === "/api/saran");
    expect(JSON.parse(String(sent?.body))).toEqual({ body: "Senam pagi dua kali seminggu", anonymous: true });
  });
});
