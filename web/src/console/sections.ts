import type { ComponentType } from "preact";
import { lazy } from "preact-iso";
import type { SessionUser } from "../session";
import { type Place, type PlaceKey, placesFor } from "./places";

/**
 * The console's sections: each place of places.ts with its screen, a chunk of its own loaded when first
 * opened, which owns the paths under its own (a nested Router).
 */
const SCREENS: Record<PlaceKey, ComponentType> = {
  Dashboard: lazy(() => import("./dashboard").then((m) => m.Dashboard)),
  RwDashboard: lazy(() => import("./rw").then((m) => m.RwDashboard)),
  Registry: lazy(() => import("./registry").then((m) => m.Registry)),
  Finance: lazy(() => import("./finance").then((m) => m.Finance)),
  Letters: lazy(() => import("./letters").then((m) => m.Letters)),
  RwLinks: lazy(() => import("./rw").then((m) => m.RwLinks)),
  RwLetters: lazy(() => import("./rw").then((m) => m.RwLetters)),
  Guests: lazy(() => import("./guests").then((m) => m.Guests)),
  Polls: lazy(() => import("./polls").then((m) => m.Polls)),
  Content: lazy(() => import("./content").then((m) => m.Content)),
  Committee: lazy(() => import("./committee").then((m) => m.Committee)),
  Settings: lazy(() => import("./settings").then((m) => m.Settings)),
};

export interface Section extends Place {
  screen: ComponentType;
}

/** The sections this person may open in this community, in the menu's order. */
export function sectionsFor(user: Pick<SessionUser, "roles" | "tenant">): Section[] {
  return placesFor(user).map((p) => ({ ...p, screen: SCREENS[p.key] }));
}
