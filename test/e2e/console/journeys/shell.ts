import { expect } from "vitest";
import type { Journey } from "../../web/harness";

/** The console's frame: who gets which sections, one tap between household and committee (issue 46). */
export const consoleShellJourneys: Journey[] = [
  {
    name: "each officer sees the sections of their duties, one tap from their household, and a resident sees none",
    run: async (app) => {
      // The treasurer, on a phone: "Pengurus" in the bottom bar, the finance section, not the registry.
      const phone = await app.page();
      await app.signIn(phone, "bendahara.rt01@warga.test");
      const tabs = phone.getByRole("navigation", { name: "Menu utama" });
      await tabs.getByRole("link", { name: "Pengurus" }).click();
      const sections = phone.getByRole("navigation", { name: "Menu pengurus" });
      await sections.getByRole("link", { name: "Keuangan" }).waitFor();
      expect(await sections.getByRole("link", { name: "Data warga" }).count()).toBe(0);
      expect(await sections.getByRole("link", { name: "Tim pengurus" }).count()).toBe(0);
      // Back to the household in one tap.
      await tabs.getByRole("link", { name: "Beranda" }).click();
      await phone.getByRole("heading", { level: 1, name: /^Halo, / }).waitFor();

      // The head, on a desktop: every section of an RT.
      const desk = await app.page({ width: 1280, height: 800 });
      await app.signIn(desk, "admin.rt01@warga.test");
      await desk.goto(`${app.url}/pengurus`);
      const all = desk.getByRole("navigation", { name: "Menu pengurus" });
      for (const name of [
        "Ringkasan",
        "Data warga",
        "Keuangan",
        "Surat",
        "Tamu",
        "Musyawarah",
        "Tim pengurus",
        "Pengaturan",
      ]) {
        await all.getByRole("link", { name, exact: true }).waitFor();
      }
      expect(await all.getByRole("link", { name: "Surat menunggu RW" }).count()).toBe(0);

      // The RW's head: the RW's sections.
      const rw = await app.page({ width: 1280, height: 800 });
      await app.signIn(rw, "admin.rw05@warga.test");
      await rw.goto(`${app.url}/pengurus`);
      const rwNav = rw.getByRole("navigation", { name: "Menu pengurus" });
      await rwNav.getByRole("link", { name: "Surat menunggu RW" }).waitFor();
      await rwNav.getByRole("link", { name: "RT di bawah RW" }).waitFor();
      expect(await rwNav.getByRole("link", { name: "Keuangan" }).count()).toBe(0);

      // A resident with no duty: no tab, and the address alone opens nothing.
      const resident = await app.page();
      await app.signIn(resident, "warga1.rt01@warga.test");
      expect(
        await resident
          .getByRole("navigation", { name: "Menu utama" })
          .getByRole("link", { name: "Pengurus" })
          .count(),
      ).toBe(0);
      await resident.goto(`${app.url}/pengurus`);
      await resident.getByText("Anda tidak memegang tugas pengurus di komunitas ini.").waitFor();
    },
  },
];
