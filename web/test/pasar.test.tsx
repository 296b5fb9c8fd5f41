import { fireEvent, screen, waitFor } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { Pasar } from "../src/screens/pasar";
import { openArea } from "./area";
import { fake, problem, resident, signedInAs, useFakeApi } from "./fake-api";

useFakeApi();

const listing = (over: Record<string, unknown> = {}) => ({
  id: "L1",
  sellerId: "u2",
  sellerName: "Siti Aminah",
  title: "Nasi uduk",
  description: "Komplit",
  price: 12000,
  category: "makanan",
  condition: "baru",
  status: "aktif",
  photos: [],
  whatsappUrl: "https://wa.me/6281234?text=Halo",
  moderation: null,
  createdAt: "2026-11-20T01:00:00Z",
  updatedAt: "2026-11-20T01:00:00Z",
  ...over,
});
const type = (label: string, value: string) =>
  fireEvent.input(screen.getByLabelText(label), { target: { value } });
const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: "image/png" });

describe("browsing the market", () => {
  it("shows listings with their price, searches by words and category", async () => {
    await signedInAs();
    fake.routes["/api/pasar/listings"] = (sent) => ({
      status: 200,
      body: {
        items:
          sent.query.get("q") === "sepeda"
            ? []
            : [listing(), listing({ id: "L2", title: "Servis AC", price: "nego" })],
      },
    });
    openArea("/pasar", Pasar, "/pasar");
    expect(await screen.findByRole("link", { name: /Nasi uduk/ })).toBeTruthy();
    expect(screen.getByText("Rp12.000")).toBeTruthy();
    expect(screen.getByText("Nego")).toBeTruthy();
    type("Cari", "sepeda");
    type("Kategori", "barang_bekas");
    fireEvent.click(screen.getByRole("button", { name: "Cari" }));
    expect(await screen.findByText("Belum ada yang dijual.")).toBeTruthy();
    const last = fake.seen.filter((s) => s.path === "/api/pasar/listings").at(-1);
    expect(last?.query.get("q")).toBe("sepeda");
    expect(last?.query.get("category")).toBe("barang_bekas");
  });

  it("a neighbour's listing offers their WhatsApp; one's own offers edit, sold and remove instead", async () => {
    await signedInAs();
    fake.routes["/api/pasar/listings/L1"] = { status: 200, body: listing() };
    const other = openArea("/pasar", Pasar, "/pasar/L1");
    const wa = await screen.findByRole("link", { name: "Hubungi penjual lewat WhatsApp" });
    expect(wa.getAttribute("href")).toBe("https://wa.me/6281234?text=Halo");
    expect(screen.queryByRole("button", { name: "Tandai terjual" })).toBeNull();
    other.unmount();

    fake.routes["/api/pasar/listings/L1"] = { status: 200, body: listing({ sellerId: resident.id }) };
    fake.routes["PUT /api/pasar/listings/L1"] = problem(
      412,
      "precondition_failed",
      "Lapak sudah diubah di tempat lain",
    );
    openArea("/pasar", Pasar, "/pasar/L1");
    fireEvent.click(await screen.findByRole("button", { name: "Tandai terjual" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Lapak sudah diubah di tempat lain");
    const put = fake.seen.find((s) => s.method === "PUT");
    expect(JSON.parse(String(put?.body))).toEqual({ status: "terjual" });
    expect(screen.queryByRole("link", { name: "Hubungi penjual lewat WhatsApp" })).toBeNull();
  });
});

describe("selling", () => {
  it("uploads each photo for the market and creates the listing with their ids; a failure keeps the form", async () => {
    await signedInAs();
    let n = 0;
    fake.routes["POST /api/files"] = () => {
      n += 1;
      return { status: 201, body: { id: `F${n}`, url: `/api/files/F${n}`, contentType: "image/png" } };
    };
    let calls = 0;
    fake.routes["POST /api/pasar/listings"] = () =>
      ++calls === 1
        ? problem(409, "no_contact", "Isi nomor WhatsApp di profil Anda dulu")
        : { status: 201, body: listing({ id: "L7", sellerId: resident.id }) };
    fake.routes["/api/pasar/listings/L7"] = {
      status: 200,
      body: listing({ id: "L7", sellerId: resident.id }),
    };
    openArea("/pasar", Pasar, "/pasar/baru");
    await screen.findByLabelText("Judul");
    type("Judul", "Keripik singkong");
    type("Keterangan", "Balado 250 gram");
    type("Kategori", "makanan");
    type("Kondisi barang", "baru");
    type("Harga (Rp)", "15.000");
    fireEvent.change(screen.getByLabelText("Pilih dari galeri"), {
      target: { files: [png("a.png"), png("b.png")] },
    });
    expect(await screen.findByRole("img", { name: "Foto 2 yang dipilih" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Pasang di pasar" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Isi nomor WhatsApp di profil Anda dulu");
    expect((screen.getByLabelText("Judul") as HTMLInputElement).value).toBe("Keripik singkong");
    fireEvent.click(screen.getByRole("button", { name: "Pasang di pasar" }));
    await waitFor(() => expect(location.pathname).toBe("/pasar/L7"));
    // Two photos, each uploaded once across both attempts.
    expect(fake.seen.filter((s) => s.path === "/api/files")).toHaveLength(2);
    const posts = fake.seen.filter((s) => s.path === "/api/pasar/listings" && s.method === "POST");
    expect(posts[1]?.headers.get("Idempotency-Key")).toBe(posts[0]?.headers.get("Idempotency-Key"));
    expect(JSON.parse(String(posts[1]?.body))).toEqual({
      title: "Keripik singkong",
      description: "Balado 250 gram",
      price: 15000,
      category: "makanan",
      condition: "baru",
      photoIds: ["F1", "F2"],
    });
  });

  it("a service has no condition; a negotiable price is sent as nego", async () => {
    await signedInAs();
    fake.routes["POST /api/pasar/listings"] = { status: 201, body: listing({ id: "L8" }) };
    openArea("/pasar", Pasar, "/pasar/baru");
    await screen.findByLabelText("Judul");
    type("Judul", "Les matematika");
    type("Keterangan", "SD sampai SMP");
    type("Kategori", "jasa");
    expect(screen.queryByLabelText("Kondisi barang")).toBeNull();
    fireEvent.click(screen.getByRole("checkbox", { name: "Harga nego" }));
    expect(screen.queryByLabelText("Harga (Rp)")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Pasang di pasar" }));
    await waitFor(() => expect(fake.seen.some((s) => s.method === "POST")).toBe(true));
    const sent = fake.seen.find((s) => s.path === "/api/pasar/listings" && s.method === "POST");
    expect(JSON.parse(String(sent?.body))).toMatchObject({
      price: "nego",
      category: "jasa",
      condition: null,
      photoIds: [],
    });
  });
});
