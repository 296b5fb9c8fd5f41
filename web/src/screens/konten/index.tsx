import { t, useLanguage } from "../../i18n";

/** `/berita`, `/pengumuman`, `/agenda`, `/galeri`: the community's news and pictures (placeholders until built). */
export function Berita() {
  useLanguage();
  return <h1>{t("nav.berita")}</h1>;
}

export function Pengumuman() {
  useLanguage();
  return <h1>{t("nav.pengumuman")}</h1>;
}

export function Agenda() {
  useLanguage();
  return <h1>{t("nav.agenda")}</h1>;
}

export function Galeri() {
  useLanguage();
  return <h1>{t("nav.galeri")}</h1>;
}
