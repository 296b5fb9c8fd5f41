import { language } from "../i18n";

/**
 * The console's words, kept with the screens that use them (one small catalogue per area, both languages,
 * Indonesian first) so the resident's first screen never carries the committee's vocabulary. A screen
 * calls `useLanguage()` to re-render when the language changes, as every screen does.
 *
 *   const tx = catalog({ id: { title: "Surat" }, en: { title: "Letters" } });
 *   tx("title");
 */
export function catalog<const Id extends Record<string, string>>(texts: {
  id: Id;
  en: { [K in keyof Id]: string };
}) {
  return (key: keyof Id & string, params?: Record<string, string | number>): string => {
    const text = (language() === "en" ? texts.en[key] : undefined) ?? texts.id[key] ?? key;
    return params
      ? text.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name] ?? `{${name}}`))
      : text;
  };
}

/** The console's own shared words (layout, tables, conflicts, progress). */
export const cx = catalog({
  id: {
    title: "Pengurus",
    nav: "Menu pengurus",
    household: "Rumah saya",
    noDuty: "Anda tidak memegang tugas pengurus di komunitas ini.",
    conflictTitle: "Data ini baru saja diubah oleh pengurus lain.",
    conflictBody: "Perubahan Anda masih ada di formulir. Pilih yang ingin disimpan.",
    conflictTheirs: "Muat versi terbaru (buang perubahan saya)",
    conflictMine: "Simpan versi saya",
    copy: "Salin",
    copied: "Tersalin",
    shownOnce: "Hanya ditampilkan sekali. Simpan sekarang.",
    cancel: "Batal",
    confirm: "Ya, lanjutkan",
    close: "Tutup",
    progress: "Sedang diproses",
    search: "Cari",
    filter: "Saring",
    all: "Semua",
    save: "Simpan",
    saved: "Tersimpan.",
    edit: "Ubah",
    delete: "Hapus",
    prev: "Sebelumnya",
    next: "Berikutnya",
  },
  en: {
    title: "Committee",
    nav: "Committee menu",
    household: "My household",
    noDuty: "You hold no committee duty in this community.",
    conflictTitle: "Someone on the committee has just changed this record.",
    conflictBody: "Your changes are still in the form. Choose which to keep.",
    conflictTheirs: "Load the latest version (discard my changes)",
    conflictMine: "Save my version",
    copy: "Copy",
    copied: "Copied",
    shownOnce: "Shown only once. Keep it now.",
    cancel: "Cancel",
    confirm: "Yes, go ahead",
    close: "Close",
    progress: "Working",
    search: "Search",
    filter: "Filter",
    all: "All",
    save: "Save",
    saved: "Saved.",
    edit: "Edit",
    delete: "Delete",
    prev: "Previous",
    next: "Next",
  },
});
