import { type MessageKey, t, useLanguage } from "../../i18n";
import { PushToggle } from "../../pwa/PushToggle";
import { useSession } from "../../session";

/** Every screen the person may open, the bottom bar's "Lainnya" (more) page. */
export const RESIDENT_SCREENS: { path: string; key: MessageKey }[] = [
  { path: "/iuran", key: "nav.iuran" },
  { path: "/surat", key: "nav.surat" },
  { path: "/tamu", key: "nav.tamu" },
  { path: "/musyawarah", key: "nav.musyawarah" },
  { path: "/aspirasi", key: "nav.aspirasi" },
  { path: "/pengumuman", key: "nav.pengumuman" },
  { path: "/berita", key: "nav.berita" },
  { path: "/agenda", key: "nav.agenda" },
  { path: "/galeri", key: "nav.galeri" },
  { path: "/pasar", key: "nav.pasar" },
  { path: "/asisten", key: "nav.asisten" },
  { path: "/profil", key: "nav.profil" },
];

/** `/menu`. */
export function Menu() {
  useLanguage();
  const session = useSession();
  const roles = session.status === "signedIn" ? session.user.roles : [];
  const resident = session.status === "signedIn" && session.user.resident;
  const screens = [
    ...(roles.includes("satpam") ? [{ path: "/satpam", key: "nav.satpam" as MessageKey }] : []),
    ...(resident ? RESIDENT_SCREENS : RESIDENT_SCREENS.filter((s) => !RESIDENT_ONLY.has(s.path))),
  ];
  return (
    <section aria-labelledby="menu-title">
      <h1 id="menu-title">{t("nav.menu")}</h1>
      <ul class="links menu">
        {screens.map((s) => (
          <li key={s.path}>
            <a href={s.path}>{t(s.key)}</a>
          </li>
        ))}
      </ul>
      <PushToggle />
    </section>
  );
}

/** Screens about the person's own house: shown to those who live in the community. */
const RESIDENT_ONLY = new Set(["/iuran", "/surat", "/tamu", "/musyawarah"]);
