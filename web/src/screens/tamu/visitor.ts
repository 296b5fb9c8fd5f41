import { jakartaDay } from "../../format";
import type { MessageKey } from "../../i18n";

/** A guest registration as the visitor routes answer it (src/modules/visitor/schemas.ts `Visitor`). */
export interface Visitor {
  id: string;
  residentName?: string | null;
  guestName: string;
  purpose: string;
  visitAt: string;
  vehiclePlate: string | null;
  identity: string | null;
  status: "menunggu" | "disetujui" | "ditolak";
  note: string | null;
  passValidFrom: string | null;
  passValidUntil: string | null;
  /** The signed pass the QR carries: the resident's own approved registrations only. */
  pass?: string | null;
  /** The pass's short code, for the guard to type when the QR will not scan (with `pass`). */
  passCode?: string | null;
  checkedInAt: string | null;
  checkedOutAt: string | null;
  inside: boolean;
  /** Registered at the gate by the guard (issue 45): the host's household answers it. */
  walkIn?: boolean;
  category?: string | null;
  approvalMethod?: "pengurus" | "tuan_rumah" | "telepon" | null;
  multiEntry?: boolean;
  /** A walk-in's photo taken at the gate (read with the token: `AuthImage`). */
  photoUrl?: string | null;
}

/** A regular visitor's card (src/modules/visitor/schemas.ts `RegularVisitor`). */
export interface RegularVisitor {
  id: string;
  name: string;
  role: string;
  vehiclePlate?: string | null;
  days: number[];
  fromTime: string;
  untilTime: string;
  validUntil?: string | null;
  revokedAt?: string | null;
  admittedNow: boolean;
}

/** Who a regular visitor is, as the API names it (src/modules/visitor/tables.ts `REGULAR_ROLES`). */
export const REGULAR_ROLES = ["art", "sopir", "pengasuh", "tukang", "lainnya"] as const;

/** The categories of a walk-in, as the API names them (src/modules/visitor/tables.ts). */
export const WALK_IN_CATEGORIES = ["ojol", "kurir", "tamu", "keluarga", "layanan", "lainnya"] as const;

/** Where a guest stands, as a person says it: waiting, approved, refused, inside, gone. */
export type Stage = "menunggu" | "disetujui" | "ditolak" | "masuk" | "keluar";

export function stageOf(v: Visitor): Stage {
  if (v.checkedOutAt) {
    return "keluar";
  }
  if (v.checkedInAt) {
    return "masuk";
  }
  return v.status;
}

export const stageKey = (stage: Stage): MessageKey => `tamu.stage.${stage}` as MessageKey;

/** Today, later, or before, by the Jakarta calendar day of the visit (the day the pass is valid). */
export function whenOf(v: Visitor, now = new Date()): "today" | "upcoming" | "past" {
  const day = jakartaDay(v.visitAt);
  const today = jakartaDay(now);
  return day === today ? "today" : day > today ? "upcoming" : "past";
}
