import { expect } from "vitest";
// @ts-expect-error: a plain .mjs helper shared with npm run dev's demo photos.
import { uploadDemoPhoto } from "../../../../scripts/seed/api/galeri.mjs";
// @ts-expect-error: as above, npm run dev's demo news covers.
import { setDemoCover } from "../../../../scripts/seed/api/konten.mjs";
import { DEMO_PASSWORD, type Journey } from "../harness";

// The only accounts these journeys change anything as: the resident votes, the admin runs the poll and
// adds a photo. Everything else they read is the SQL demo seed (scripts/seed/konten.mjs, galeri.mjs).
const RESIDENT = "warga2.rt02@warga.test";
const ADMIN = "admin.rt02@warga.test";
const MINUTE = 60_000;

/** The community's screens: a poll from its publishing to a resident's vote, and the content a resident reads. */
export const communityJourneys: Journey[] = [
  {
    name: "a resident votes in a poll and sees the result",
    run: async (app) => {
      const admin = await app.apiAs(ADMIN);
      const created = await admin("POST", "/api/musyawarah", {
        title: "Pemasangan lampu jalan blok C",
        description: "Usulan pengurus: dua lampu jalan baru di ujung blok C, dibiayai kas RT.",
        options: ["Setuju", "Tidak setuju"],
        startsAt: new Date(Date.now() - MINUTE).toISOString(),
        endsAt: new Date(Date.now() + 2 * 24 * 60 * MINUTE).toISOString(),
        quorum: { kind: "percent", value: 50 },
        resultsVisibility: "always",
        status: "aktif",
      });
      expect(created.status).toBe(201);
      const poll = (await created.json()) as { id: string };

      const page = await app.page();
      await page.goto(`${app.url}/login?next=/musyawarah`);
      await app.signIn(page, RESIDENT);
      await page.goto(`${app.url}/musyawarah`);
      const link = page.getByRole("link", { name: "Pemasangan lampu jalan blok C" });
      await link.waitFor();
      await app.settled(page);
      expect(await page.getByText("Belum memilih").count()).toBe(1);
      expect(await app.seriousViolations(page), "poll list: axe serious/critical").toEqual([]);
      await app.screenshot(page, "musyawarah-360");

      await link.click();
      await page.getByRole("heading", { level: 1, name: "Pemasangan lampu jalan blok C" }).waitFor();
      await app.settled(page);
      await page.getByRole("radio", { name: "Setuju", exact: true }).check();
      expect(await app.seriousViolations(page), "ballot: axe serious/critical").toEqual([]);
      await app.screenshot(page, "musyawarah-vote-360");

      await page.getByRole("button", { name: "Kirim suara" }).click();
      await page.getByRole("status").filter({ hasText: "Anda sudah memilih" }).waitFor();
      // The result as the poll shows it to everyone ("always"): the one ballot, for "Setuju".
      const results = page.getByRole("article", { name: "Hasil" });
      await expect.poll(() => results.textContent()).toContain("1 suara (100%)");
      expect(await page.getByRole("button", { name: "Kirim suara" }).count()).toBe(0);
      expect(await app.seriousViolations(page), "after voting: axe serious/critical").toEqual([]);
      await app.screenshot(page, "musyawarah-voted-360");

      // The API counted exactly one ballot, and the list now says so too.
      const counted = (await (await admin("GET", `/api/musyawarah/${poll.id}`)).json()) as {
        turnout: { ballots: number };
      };
      expect(counted.turnout.ballots).toBe(1);
      await page.getByRole("link", { name: "← Semua musyawarah" }).click();
      await page.getByText("Sudah memilih").waitFor();
    },
  },
  {
    name: "a resident reads the announcements, a news article, the agenda and a gallery album",
    run: async (app) => {
      // Photos in the demo album and a cover on a demo article: pictures reach R2 only through the API.
      const login = await fetch(`${app.url}/api/auth/login`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ email: ADMIN, password: DEMO_PASSWORD }),
      });
      const { accessToken } = (await login.json()) as { accessToken: string };
      const album = "seed-album-rt-02-sukamaju-kerja-bakti";
      await uploadDemoPhoto(
        app.url,
        { Authorization: `Bearer ${accessToken}` },
        album,
        200,
        "Warga bergotong royong",
      );
      await uploadDemoPhoto(app.url, { Authorization: `Bearer ${accessToken}` }, album, 30, null);
      await setDemoCover(
        app.url,
        { Authorization: `Bearer ${accessToken}` },
        "seed-berita-rt-02-sukamaju-kerja-bakti",
        190,
      );

      const page = await app.page();
      await page.goto(`${app.url}/login?next=/pengumuman`);
      await app.signIn(page, RESIDENT);

      // Announcements: the urgent one first and marked, though it is older.
      await page.goto(`${app.url}/pengumuman`);
      await page.getByRole("heading", { level: 1, name: "Pengumuman" }).waitFor();
      await app.settled(page);
      const titles = await page.getByRole("heading", { level: 2 }).allTextContents();
      expect(titles[0]).toBe("Fogging DBD Jumat sore");
      expect(titles).toContain("Pemadaman air PAM Sabtu pagi");
      expect(await page.getByText("Penting").count()).toBe(1);
      expect(await app.seriousViolations(page), "pengumuman: axe serious/critical").toEqual([]);
      await app.screenshot(page, "pengumuman-360");
      await page.getByRole("link", { name: "Fogging DBD Jumat sore" }).click();
      await page.getByRole("heading", { level: 1, name: "Fogging DBD Jumat sore" }).waitFor();
      expect(await page.locator(".prose strong").textContent()).toBe("fogging");
      expect(await app.seriousViolations(page), "pengumuman item: axe serious/critical").toEqual([]);

      // A news article, reached from the list.
      await page.goto(`${app.url}/berita`);
      await page.getByRole("heading", { level: 1, name: "Berita" }).waitFor();
      await app.settled(page);
      await page.waitForFunction(
        () => (document.querySelector<HTMLImageElement>(".thumb img")?.naturalWidth ?? 0) > 0,
      );
      expect(await app.seriousViolations(page), "berita list: axe serious/critical").toEqual([]);
      await app.screenshot(page, "berita-list-360");
      await page.getByRole("link", { name: "Kerja bakti membersihkan saluran air berhasil" }).click();
      await page
        .getByRole("heading", { level: 1, name: "Kerja bakti membersihkan saluran air berhasil" })
        .waitFor();
      await app.settled(page);
      expect(await page.locator(".prose").textContent()).toContain("42 warga");
      // Its cover, read through the API with the token and drawn in a box sized before it came.
      const cover = page.getByRole("img", {
        name: "Gambar sampul: Kerja bakti membersihkan saluran air berhasil",
      });
      await cover.waitFor();
      await page.waitForFunction(
        () => (document.querySelector<HTMLImageElement>("article img")?.naturalWidth ?? 0) > 0,
      );
      expect(await app.seriousViolations(page), "berita: axe serious/critical").toEqual([]);
      await app.screenshot(page, "berita-360");

      // The agenda: what is coming, in WIB, each with its place.
      await page.goto(`${app.url}/agenda`);
      await page.getByRole("heading", { level: 2, name: "Rapat warga bulanan" }).waitFor();
      await app.settled(page);
      expect(await page.getByText("Tempat: Balai warga").count()).toBe(1);
      expect(await page.locator(".agenda-item strong").first().textContent()).toMatch(/19\.00 – 21\.00 WIB$/);
      expect(await app.seriousViolations(page), "agenda: axe serious/critical").toEqual([]);
      await app.screenshot(page, "agenda-360");

      // The gallery: albums, then one album's photos, read through the API with the token.
      await page.goto(`${app.url}/galeri`);
      await page.getByRole("heading", { level: 1, name: "Galeri" }).waitFor();
      await app.settled(page);
      await page.waitForFunction(
        () => (document.querySelector<HTMLImageElement>(".album img")?.naturalWidth ?? 0) > 0,
      );
      expect(await app.seriousViolations(page), "albums: axe serious/critical").toEqual([]);
      await app.screenshot(page, "galeri-albums-360");
      await page.getByRole("link", { name: "Kerja bakti saluran air" }).click();
      await page.getByRole("heading", { level: 1, name: "Kerja bakti saluran air" }).waitFor();
      const photo = page.getByRole("img", { name: "Warga bergotong royong" });
      await photo.waitFor();
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll<HTMLImageElement>(".photos img")].filter((i) => i.naturalWidth > 0)
            .length === 2,
      );
      expect(
        await page.getByRole("img", { name: "Foto 2 dari 2, album Kerja bakti saluran air" }).count(),
      ).toBe(1);
      expect(await app.seriousViolations(page), "galeri: axe serious/critical").toEqual([]);
      await app.screenshot(page, "galeri-360");
    },
  },
];
