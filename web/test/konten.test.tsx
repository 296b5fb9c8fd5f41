import { fireEvent, render, screen } from "@testing-library/preact";
import type { ComponentType } from "preact";
import { LocationProvider, Route, Router } from "preact-iso";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { Agenda, Berita, Galeri, Pengumuman } from "../src/screens/konten";
import { icsOf } from "../src/screens/konten/Agenda";
import { fake, problem, signedInAs, useFakeApi } from "./fake-api";

useFakeApi();

beforeEach(async () => {
  vi.stubGlobal("URL", Object.assign(URL, { createObjectURL: () => "blob:foto", revokeObjectURL: () => {} }));
  await signedInAs();
});

/** An area as app.tsx mounts it, at `path`. */
function open(area: string, Screen: ComponentType, path: string) {
  history.replaceState(null, "", path);
  render(
    <LocationProvider>
      <Router>
        <Route path={area} component={Screen} />
        <Route path={`${area}/*`} component={Screen} />
      </Router>
    </LocationProvider>,
  );
}

const item = (id: string, title: string, urgent: boolean, publishedAt: string) => ({
  id,
  title,
  body: "x",
  bodyHtml: "<p>x</p>",
  urgent,
  publishedAt,
  createdAt: publishedAt,
});

describe("pengumuman", () => {
  it("puts the urgent ones first and marks them", async () => {
    fake.routes["/api/pengumuman"] = {
      status: 200,
      body: {
        items: [
          item("a1", "Pemadaman air PAM", false, "2026-11-27T02:00:00Z"),
          item("a2", "Fogging DBD Jumat sore", true, "2026-11-25T02:00:00Z"),
        ],
        nextCursor: null,
      },
    };
    open("/pengumuman", Pengumuman, "/pengumuman");
    await screen.findByRole("link", { name: "Fogging DBD Jumat sore" });
    const titles = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(titles).toEqual(["Fogging DBD Jumat sore", "Pemadaman air PAM"]);
    expect(screen.getAllByText("Penting")).toHaveLength(1);
    expect(screen.getByText("25 Nov 2026")).toBeTruthy();
  });

  it("says when there is none, and offers a retry when the list fails", async () => {
    let answers = 0;
    fake.routes["/api/pengumuman"] = () =>
      answers++ === 0
        ? problem(500, "internal", "Terjadi kesalahan di server.")
        : { status: 200, body: { items: [], nextCursor: null } };
    open("/pengumuman", Pengumuman, "/pengumuman");
    expect((await screen.findByRole("alert")).textContent).toContain("Terjadi kesalahan di server.");
    fireEvent.click(screen.getByRole("button", { name: "Coba lagi" }));
    expect(await screen.findByText("Belum ada pengumuman.")).toBeTruthy();
  });

  it("shows one announcement's text as the API rendered it", async () => {
    fake.routes["/api/pengumuman/a2"] = {
      status: 200,
      body: {
        ...item("a2", "Fogging DBD", true, "2026-11-25T02:00:00Z"),
        bodyHtml: "<p>Tutup <strong>makanan</strong></p>",
      },
    };
    open("/pengumuman", Pengumuman, "/pengumuman/a2");
    expect(await screen.findByRole("heading", { level: 1, name: "Fogging DBD" })).toBeTruthy();
    expect(screen.getByText("makanan").tagName).toBe("STRONG");
    expect(screen.getByRole("link", { name: "← Semua pengumuman" }).getAttribute("href")).toBe("/pengumuman");
  });

  it("answers a wrong id with the API's problem", async () => {
    fake.routes["/api/pengumuman/nope"] = problem(404, "not_found", "Pengumuman tidak ditemukan.");
    open("/pengumuman", Pengumuman, "/pengumuman/nope");
    expect((await screen.findByRole("alert")).textContent).toContain("Pengumuman tidak ditemukan.");
  });
});

describe("berita", () => {
  it("shows an article with its cover, read through the API with the bearer token", async () => {
    fake.routes["/api/berita/b1"] = {
      status: 200,
      body: {
        id: "b1",
        title: "Kerja bakti berhasil",
        bodyHtml: "<p>Terima kasih kepada 42 warga.</p>",
        cover: { id: "f1", url: "http://127.0.0.1:8787/api/files/f1" },
        publishedAt: "2026-11-22T02:00:00Z",
        createdAt: "2026-11-22T02:00:00Z",
      },
    };
    fake.routes["/api/files/f1"] = { status: 200, body: "png" };
    open("/berita", Berita, "/berita/b1");
    await screen.findByText("Terima kasih kepada 42 warga.");
    await vi.waitFor(() =>
      expect(screen.getByAltText("Gambar sampul: Kerja bakti berhasil").tagName).toBe("IMG"),
    );
    const shown = screen.getByAltText("Gambar sampul: Kerja bakti berhasil");
    expect([shown.getAttribute("width"), shown.getAttribute("height")]).toEqual(["640", "360"]);
    // Same-origin path, with the token an <img src> could not send.
    const file = fake.seen.find((s) => s.path === "/api/files/f1");
    expect(file?.headers.get("Authorization")).toBe("Bearer a");
  });

  it("lists the news with links to each article", async () => {
    fake.routes["/api/berita"] = {
      status: 200,
      body: {
        items: [
          {
            id: "b2",
            title: "Posyandu pindah",
            bodyHtml: "",
            cover: null,
            publishedAt: "2026-11-26T02:00:00Z",
            createdAt: "2026-11-26T02:00:00Z",
          },
        ],
        nextCursor: null,
      },
    };
    open("/berita", Berita, "/berita");
    expect((await screen.findByRole("link", { name: "Posyandu pindah" })).getAttribute("href")).toBe(
      "/berita/b2",
    );
  });
});

describe("agenda", () => {
  const rapat = {
    id: "e1",
    title: "Rapat warga bulanan",
    description: "Membahas iuran keamanan; semua warga diundang.",
    place: "Balai warga",
    start: "2026-12-01T12:00:00.000Z",
    end: "2026-12-01T14:00:00.000Z",
  };

  it("lists the coming events with their time in WIB and their place", async () => {
    fake.routes["/api/agenda"] = { status: 200, body: { items: [rapat], nextCursor: null } };
    open("/agenda", Agenda, "/agenda");
    expect(await screen.findByText("1 Desember 2026, 19.00 – 21.00 WIB")).toBeTruthy();
    expect(screen.getByText("Tempat: Balai warga")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Tambahkan ke kalender: Rapat warga bulanan" })).toBeTruthy();
  });

  it("says when nothing is coming", async () => {
    fake.routes["/api/agenda"] = { status: 200, body: { items: [], nextCursor: null } };
    open("/agenda", Agenda, "/agenda");
    expect(await screen.findByText("Belum ada agenda yang akan datang.")).toBeTruthy();
  });

  it("writes an event as an iCalendar file, its text escaped", () => {
    const ics = icsOf(rapat, new Date("2026-11-28T00:00:00Z"));
    expect(ics.split("\r\n")).toEqual([
      "BEGIN:VCALENDAR",
      "VERSION:2.0",
      "PRODID:-//Warga//Agenda//ID",
      "BEGIN:VEVENT",
      "UID:e1@warga",
      "DTSTAMP:20261128T000000Z",
      "DTSTART:20261201T120000Z",
      "DTEND:20261201T140000Z",
      "SUMMARY:Rapat warga bulanan",
      "LOCATION:Balai warga",
      "DESCRIPTION:Membahas iuran keamanan\\; semua warga diundang.",
      "END:VEVENT",
      "END:VCALENDAR",
      "",
    ]);
  });
});

describe("galeri", () => {
  const photo = (id: string, caption: string | null) => ({
    id,
    albumId: "al1",
    url: `/api/files/${id}`,
    contentType: "image/png",
    size: 10,
    caption,
    createdAt: "2026-11-22T02:00:00Z",
  });

  it("lists the albums with their photo count", async () => {
    fake.routes["/api/galeri"] = {
      status: 200,
      body: {
        items: [
          {
            id: "al1",
            title: "Kerja bakti saluran air",
            description: null,
            eventDate: "2026-11-22",
            photoCount: 3,
            cover: photo("f1", null),
          },
        ],
        nextCursor: null,
      },
    };
    fake.routes["/api/files/f1"] = { status: 200, body: "png" };
    open("/galeri", Galeri, "/galeri");
    expect((await screen.findByRole("link", { name: "Kerja bakti saluran air" })).getAttribute("href")).toBe(
      "/galeri/al1",
    );
    expect(screen.getByText("22 Nov 2026 · 3 foto")).toBeTruthy();
  });

  it("shows an album's photos sized before they arrive, each with a text alternative", async () => {
    fake.routes["/api/galeri/al1"] = {
      status: 200,
      body: {
        id: "al1",
        title: "Kerja bakti",
        description: "Blok A dan B",
        eventDate: null,
        photoCount: 2,
        cover: photo("f1", "Persiapan pagi hari"),
        photos: [photo("f1", "Persiapan pagi hari"), photo("f2", null)],
      },
    };
    fake.routes["/api/files/f1"] = { status: 200, body: "png" };
    fake.routes["/api/files/f2"] = problem(404, "file_not_found", "Berkas tidak ditemukan.");
    open("/galeri", Galeri, "/galeri/al1");
    expect(await screen.findByRole("heading", { level: 1, name: "Kerja bakti" })).toBeTruthy();
    await vi.waitFor(() => expect(screen.getByAltText("Persiapan pagi hari").tagName).toBe("IMG"));
    // The photo that could not be read keeps its box and its name.
    expect(screen.getByRole("img", { name: "Foto 2 dari 2, album Kerja bakti" })).toBeTruthy();
    expect(screen.getByText("Persiapan pagi hari", { selector: "figcaption" })).toBeTruthy();
  });

  it("says when an album has no photos yet", async () => {
    fake.routes["/api/galeri/al2"] = {
      status: 200,
      body: {
        id: "al2",
        title: "17 Agustus",
        description: null,
        eventDate: null,
        photoCount: 0,
        cover: null,
        photos: [],
      },
    };
    open("/galeri", Galeri, "/galeri/al2");
    expect(await screen.findByText("Album ini belum berisi foto.")).toBeTruthy();
  });
});
