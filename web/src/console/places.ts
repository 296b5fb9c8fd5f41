import type { SessionUser } from "../session";
import { type Duty, dutiesOf } from "./duties";

/**
 * Where each section of the console is and who it is for: the data alone, without the screens
 * (sections.ts attaches them), so a screen may ask "does this person's menu have that section?" (the
 * dashboard's cards link only to those) without importing the screens back. Paths are under
 * `/pengurus`; the API stays the judge of what a duty may do, the menu only avoids offering a section a
 * duty cannot use.
 */
export type CommunityType = "RT" | "RW";

export interface Place {
  /** Under /pengurus: "" is the dashboard. */
  path: string;
  label: { id: string; en: string };
  duties: readonly Duty[];
  communities: readonly CommunityType[];
}

const STAFF: Duty[] = ["admin", "sekretaris", "bendahara"];
const SECRETARIAT: Duty[] = ["admin", "sekretaris"];
const FINANCE_READERS: Duty[] = ["admin", "bendahara", "sekretaris"];
const ADMIN: Duty[] = ["admin"];
const RT: CommunityType[] = ["RT"];
const BOTH: CommunityType[] = ["RT", "RW"];

/** In the menu's order; `key` names the screen sections.ts attaches. */
export const PLACES = {
  Dashboard: { path: "", label: { id: "Ringkasan", en: "Overview" }, duties: STAFF, communities: RT },
  RwDashboard: {
    path: "",
    label: { id: "Ringkasan RW", en: "RW overview" },
    duties: STAFF,
    communities: ["RW"],
  },
  Registry: {
    path: "/warga",
    label: { id: "Data warga", en: "Registry" },
    duties: SECRETARIAT,
    communities: RT,
  },
  Finance: {
    path: "/keuangan",
    label: { id: "Keuangan", en: "Finance" },
    duties: FINANCE_READERS,
    communities: RT,
  },
  Letters: { path: "/surat", label: { id: "Surat", en: "Letters" }, duties: SECRETARIAT, communities: RT },
  RwLinks: {
    path: "/rt",
    label: { id: "RT di bawah RW", en: "RTs of the RW" },
    // The hierarchy's routes are the RW admin's alone (src/modules/hierarchy).
    duties: ADMIN,
    communities: ["RW"],
  },
  RwLetters: {
    path: "/surat-rw",
    label: { id: "Surat menunggu RW", en: "Letters for the RW" },
    duties: SECRETARIAT,
    communities: ["RW"],
  },
  Guests: { path: "/tamu", label: { id: "Tamu", en: "Guests" }, duties: STAFF, communities: RT },
  Polls: {
    path: "/musyawarah",
    label: { id: "Musyawarah", en: "Polls" },
    duties: SECRETARIAT,
    communities: RT,
  },
  Content: {
    path: "/konten",
    label: { id: "Konten & aspirasi", en: "Content & feedback" },
    duties: SECRETARIAT,
    communities: BOTH,
  },
  Committee: {
    path: "/tim",
    label: { id: "Tim pengurus", en: "The committee" },
    duties: ADMIN,
    communities: BOTH,
  },
  Settings: {
    path: "/pengaturan",
    label: { id: "Pengaturan", en: "Settings" },
    duties: ADMIN,
    communities: BOTH,
  },
} satisfies Record<string, Place>;

export type PlaceKey = keyof typeof PLACES;

/** The sections this person may open in this community, in the menu's order. */
export function placesFor(user: Pick<SessionUser, "roles" | "tenant">): (Place & { key: PlaceKey })[] {
  const duties = dutiesOf(user);
  const type = user.tenant?.type ?? "RT";
  return (Object.entries(PLACES) as [PlaceKey, Place][])
    .filter(([, p]) => p.communities.includes(type) && p.duties.some((d) => duties.includes(d)))
    .map(([key, p]) => ({ ...p, key }));
}
