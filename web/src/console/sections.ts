import type { ComponentType } from "preact";
import { lazy } from "preact-iso";
import type { SessionUser } from "../session";
import { type Duty, dutiesOf } from "./duties";

/**
 * The console's sections, each shown to the duties that work in it (the API decides what each duty may
 * do; a section a duty cannot use is not offered). Paths are under `/pengurus`; each section is its own
 * chunk, loaded when first opened, and owns the paths under its own (a nested Router).
 */
export type CommunityType = "RT" | "RW";

export interface Section {
  /** Under /pengurus: "" is the dashboard. */
  path: string;
  label: { id: string; en: string };
  duties: readonly Duty[];
  communities: readonly CommunityType[];
  screen: ComponentType;
}

const STAFF: Duty[] = ["admin", "sekretaris", "bendahara"];
const SECRETARIAT: Duty[] = ["admin", "sekretaris"];
const FINANCE_READERS: Duty[] = ["admin", "bendahara", "sekretaris"];
const ADMIN: Duty[] = ["admin"];
const RT: CommunityType[] = ["RT"];
const BOTH: CommunityType[] = ["RT", "RW"];

export const SECTIONS: Section[] = [
  {
    path: "",
    label: { id: "Ringkasan", en: "Overview" },
    duties: STAFF,
    communities: RT,
    screen: lazy(() => import("./dashboard").then((m) => m.Dashboard)),
  },
  {
    path: "",
    label: { id: "Ringkasan RW", en: "RW overview" },
    duties: STAFF,
    communities: ["RW"],
    screen: lazy(() => import("./rw").then((m) => m.RwDashboard)),
  },
  {
    path: "/warga",
    label: { id: "Data warga", en: "Registry" },
    duties: SECRETARIAT,
    communities: RT,
    screen: lazy(() => import("./registry").then((m) => m.Registry)),
  },
  {
    path: "/keuangan",
    label: { id: "Keuangan", en: "Finance" },
    duties: FINANCE_READERS,
    communities: RT,
    screen: lazy(() => import("./finance").then((m) => m.Finance)),
  },
  {
    path: "/surat",
    label: { id: "Surat", en: "Letters" },
    duties: SECRETARIAT,
    communities: RT,
    screen: lazy(() => import("./letters").then((m) => m.Letters)),
  },
  {
    path: "/rt",
    label: { id: "RT di bawah RW", en: "RTs of the RW" },
    // The hierarchy's routes are the RW admin's alone (src/modules/hierarchy).
    duties: ADMIN,
    communities: ["RW"],
    screen: lazy(() => import("./rw").then((m) => m.RwLinks)),
  },
  {
    path: "/surat-rw",
    label: { id: "Surat menunggu RW", en: "Letters for the RW" },
    duties: SECRETARIAT,
    communities: ["RW"],
    screen: lazy(() => import("./rw").then((m) => m.RwLetters)),
  },
  {
    path: "/tamu",
    label: { id: "Tamu", en: "Guests" },
    duties: STAFF,
    communities: RT,
    screen: lazy(() => import("./guests").then((m) => m.Guests)),
  },
  {
    path: "/musyawarah",
    label: { id: "Musyawarah", en: "Polls" },
    duties: SECRETARIAT,
    communities: RT,
    screen: lazy(() => import("./polls").then((m) => m.Polls)),
  },
  {
    path: "/konten",
    label: { id: "Konten & aspirasi", en: "Content & feedback" },
    duties: SECRETARIAT,
    communities: BOTH,
    screen: lazy(() => import("./content").then((m) => m.Content)),
  },
  {
    path: "/tim",
    label: { id: "Tim pengurus", en: "The committee" },
    duties: ADMIN,
    communities: BOTH,
    screen: lazy(() => import("./committee").then((m) => m.Committee)),
  },
  {
    path: "/pengaturan",
    label: { id: "Pengaturan", en: "Settings" },
    duties: ADMIN,
    communities: BOTH,
    screen: lazy(() => import("./settings").then((m) => m.Settings)),
  },
];

/** The sections this person may open in this community, in the menu's order. */
export function sectionsFor(user: Pick<SessionUser, "roles" | "tenant">): Section[] {
  const duties = dutiesOf(user);
  const type = user.tenant?.type ?? "RT";
  return SECTIONS.filter((s) => s.communities.includes(type) && s.duties.some((d) => duties.includes(d)));
}
