import { expect } from "vitest";
import type { Journey } from "../harness";

// The only accounts this journey changes data of: the resident who registers, the guard who checks in.
const RESIDENT = "warga1.rt01@warga.test";
const GUARD = "satpam.rt01@warga.test";
// Registrations wait for the committee; the secretary approves them through the API, as the staff
// console (part 2) will. Approving touches only the guests registered here.
const SECRETARY = "sekretaris.rt01@warga.test";

interface Registration {
  id: string;
  passCode?: string | null;
  checkedInAt: string | null;
  checkedOutAt: string | null;
}

/** The resident's tamu screen and the guard's gate, end to end on the real API. */
export const gateJourneys: Journey[] = [
  {
    name: "a resident registers a guest and shows the pass; the satpam checks it in by camera image and checks another in by typed code, then checks out",
    run: async (app) => {
      const secretary = await app.apiAs(SECRETARY);
      const approve = async (id: string) => {
        const res = await secretary("PUT", `/api/visitor/${id}`, { status: "disetujui" });
        expect(res.status, await res.clone().text()).toBe(200);
        return (await res.json()) as Registration;
      };

      // The resident: their guests (the seed gave them some), then a new one through the form.
      const home = await app.page();
      await app.signIn(home, RESIDENT);
      await home.getByRole("navigation", { name: "Menu utama" }).getByRole("link", { name: "Tamu" }).click();
      await home.getByRole("heading", { level: 1, name: "Tamu" }).waitFor();
      await app.settled(home);
      await home.getByRole("heading", { name: "Hari ini" }).waitFor();
      expect(await app.seriousViolations(home), "tamu: axe serious/critical").toEqual([]);
      await app.screenshot(home, "tamu-360");

      await home.getByRole("link", { name: "Daftarkan tamu" }).click();
      await home.getByLabel("Nama tamu").fill("Bayu Pratama");
      await home.getByLabel("Keperluan").fill("Mengantar kue pesanan");
      await home.getByLabel("Pelat kendaraan").fill("b 5521 kue");
      await home.getByLabel(/^Identitas tamu/).fill("KTP 3275010101900002");
      expect(await app.seriousViolations(home), "tamu form: axe serious/critical").toEqual([]);
      await home.getByRole("button", { name: "Daftarkan", exact: true }).click();
      await home.getByRole("heading", { level: 1, name: "Bayu Pratama" }).waitFor();
      await home.getByText("Menunggu persetujuan").waitFor();
      const id = new URL(home.url()).searchParams.get("id") ?? "";
      expect(id).not.toBe("");

      // Approved by the committee: the pass, its QR and its code, and the link for the guest.
      const approved = await approve(id);
      await home.reload();
      const qr = home.getByRole("img", { name: "Kode QR untuk Bayu Pratama" });
      await qr.waitFor();
      await home.waitForFunction(() => {
        const img = document.querySelector(".tamu-qr img") as HTMLImageElement | null;
        return img?.complete && img.naturalWidth > 0;
      });
      await home.getByText(approved.passCode ?? "?").waitFor();
      const wa = await home.getByRole("link", { name: "Kirim lewat WhatsApp" }).getAttribute("href");
      expect(wa).toMatch(/^https:\/\/wa\.me\/\?text=/);
      expect(decodeURIComponent(wa ?? "")).toContain(`${app.url}/tamu/`);
      expect(await app.seriousViolations(home), "tamu pass: axe serious/critical").toEqual([]);
      await app.screenshot(home, "tamu-pass-360");
      // The picture the guard's camera would take: the QR as the resident's phone shows it.
      const photo = await home.locator(".tamu-qr").screenshot();

      // A second guest, registered and approved through the API, for the code typed by hand.
      const resident = await app.apiAs(RESIDENT);
      const second = await resident("POST", "/api/visitor", {
        guestName: "Citra Lestari",
        purpose: "Arisan",
        visitAt: new Date(Date.now() + 10 * 60_000).toISOString(),
        vehiclePlate: "B 7001 ARS",
        identity: "KTP",
      });
      expect(second.status).toBe(201);
      const other = await approve(((await second.json()) as Registration).id);
      expect(other.passCode).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);

      // The guard: today's guests, then the photo of the pass.
      const gate = await app.page();
      await app.signIn(gate, GUARD);
      await gate.getByRole("link", { name: "Pos Satpam" }).first().click();
      await gate.getByRole("heading", { level: 1, name: "Pos Satpam" }).waitFor();
      await app.settled(gate);
      await gate.getByRole("heading", { name: /^Ditunggu \(\d+\)$/ }).waitFor();
      expect(
        await gate
          .getByRole("heading", { name: /^Ditunggu/ })
          .locator("..")
          .textContent(),
      ).toContain("Bayu Pratama");
      expect(await app.seriousViolations(gate), "satpam: axe serious/critical").toEqual([]);
      await app.screenshot(gate, "satpam-360");

      await gate
        .getByLabel("Pindai dari foto")
        .setInputFiles({ name: "pass.png", mimeType: "image/png", buffer: photo });
      // The verdict, or the photo's own problem (no QR read): either way the text says which.
      const verdict = gate.locator(".satpam-ok, .satpam-refused, .satpam-controls .field-error");
      await verdict.waitFor();
      // The verdict is drawn before the host's line under it: read the whole once it is there.
      await expect.poll(() => verdict.textContent()).toMatch(/^✓ MASUKBayu Pratama, tamu /);
      await app.settled(gate);
      expect(await app.seriousViolations(gate), "satpam checked in: axe serious/critical").toEqual([]);
      await app.screenshot(gate, "satpam-checked-in-360");

      // The same pass again is refused, and says why.
      await gate
        .getByLabel("Pindai dari foto")
        .setInputFiles({ name: "pass.png", mimeType: "image/png", buffer: photo });
      await gate.locator(".satpam-refused").waitFor();
      await expect.poll(() => verdict.textContent()).toContain("TIDAK BOLEH MASUK");

      // The other guest by the code typed by hand (as a person types it), then out again.
      await gate.getByLabel("Ketik kode pass").fill((other.passCode ?? "").toLowerCase().replace("-", " "));
      await gate.getByRole("button", { name: "Periksa" }).click();
      await gate.locator(".satpam-ok").waitFor();
      await expect.poll(() => verdict.textContent()).toMatch(/^✓ MASUKCitra Lestari, tamu /);
      // The field is cleared for the next guest; at the exit the code is typed again.
      expect(await gate.getByLabel("Ketik kode pass").inputValue()).toBe("");
      await gate.getByLabel("Keluar", { exact: true }).check();
      await gate.getByLabel("Ketik kode pass").fill(other.passCode ?? "");
      await gate.getByRole("button", { name: "Periksa" }).click();
      await gate.locator(".satpam-ok", { hasText: "KELUAR" }).waitFor();
      await expect.poll(() => verdict.textContent()).toMatch(/^✓ KELUARCitra Lestari, tamu /);

      // What the API recorded, as the resident sees it.
      const first = (await (await resident("GET", `/api/visitor/${id}`)).json()) as Registration;
      expect(first.checkedInAt).not.toBeNull();
      const out = (await (await resident("GET", `/api/visitor/${other.id}`)).json()) as Registration;
      expect(out.checkedInAt).not.toBeNull();
      expect(out.checkedOutAt).not.toBeNull();
    },
  },
  {
    name: "an ojol comes to the gate without a pass: the satpam registers the walk-in, the host approves it on their phone, the satpam lets him in and, later, out",
    run: async (app) => {
      const host = await app.apiAs(RESIDENT);
      const me = (await (await host("GET", "/api/user/me")).json()) as {
        unit: { block: string; number: string } | null;
      };
      expect(me.unit, "the demo resident lives in a house").not.toBeNull();
      const guest = `Agus Ojol ${Date.now().toString(36).slice(-4)}`;

      // The guard: "Tamu datang langsung", the guest's name and kind, and the host's house.
      const gate = await app.page();
      await app.signIn(gate, GUARD);
      await gate.goto(`${app.url}/satpam`);
      await app.settled(gate);
      await gate.getByRole("button", { name: "Tamu datang langsung" }).click();
      await gate.getByLabel("Nama tamu").fill(guest);
      await gate.getByLabel("Jenis tamu").selectOption({ label: "Ojek online" });
      await gate.getByLabel("Keperluan (boleh kosong)").fill("Antar makanan");
      await gate.getByLabel("Blok").fill(me.unit?.block ?? "");
      await gate.getByLabel("Nomor rumah").fill(me.unit?.number ?? "");
      expect(await app.seriousViolations(gate), "walk-in form: axe serious/critical").toEqual([]);
      await app.screenshot(gate, "satpam-walk-in-360");
      await gate.getByRole("button", { name: "Catat dan kabari tuan rumah" }).click();
      await gate
        .getByRole("status")
        .filter({ hasText: `${guest} dicatat` })
        .waitFor();

      // The host, on their phone: the guest waiting at the gate, approved with one tap.
      const phone = await app.page();
      await app.signIn(phone, RESIDENT);
      await phone.goto(`${app.url}/tamu`);
      const atGate = phone.locator("article", {
        has: phone.getByRole("heading", { name: "Tamu menunggu di gerbang" }),
      });
      const waiting = atGate.getByRole("listitem").filter({ hasText: guest });
      await waiting.waitFor();
      await app.settled(phone);
      expect(await app.seriousViolations(phone), "tamu at the gate: axe serious/critical").toEqual([]);
      await app.screenshot(phone, "tamu-walk-in-360");
      await waiting.getByRole("button", { name: "Setujui" }).click();
      await waiting.waitFor({ state: "detached" });

      // The guard lets him in from the list, finds him under "Di dalam sekarang", and out again.
      await gate.reload();
      const row = gate.getByRole("listitem").filter({ hasText: guest });
      await row.getByRole("button", { name: "Masuk" }).first().click();
      const inside = gate
        .locator("article", { has: gate.getByRole("heading", { name: /Di dalam sekarang/ }) })
        .getByRole("listitem")
        .filter({ hasText: guest });
      await inside.waitFor();
      await app.screenshot(gate, "satpam-inside-360");
      await inside.getByRole("button", { name: "Keluar" }).click();
      await inside.waitFor({ state: "detached" });
      const stillInside = (await (
        await (
          await app.apiAs(GUARD)
        )("GET", "/api/visitor?inside=true&limit=100")
      ).json()) as { items: { guestName: string }[] };
      expect(stillInside.items.map((v) => v.guestName)).not.toContain(guest);
    },
  },
];
