import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { versioned } from "../../platform/conditional";
import { VISITOR_ERROR_CODES } from "./errors";
import { visitorFileReferences, visitorPersonalData } from "./manifest";
import { AttachWalkInPhoto } from "./routes/attachWalkInPhoto";
import { CreateRegularVisitor } from "./routes/createRegularVisitor";
import { CreateVisitor } from "./routes/createVisitor";
import { CreateWalkIn } from "./routes/createWalkIn";
import { DecideVisitor } from "./routes/decideVisitor";
import { GateCheckIn } from "./routes/gateCheckIn";
import { GateCheckOut } from "./routes/gateCheckOut";
import { GetVisitor } from "./routes/getVisitor";
import { GetVisitorQr } from "./routes/getVisitorQr";
import { GetVisitorSettings } from "./routes/getVisitorSettings";
import { GetWalkInPhoto } from "./routes/getWalkInPhoto";
import { GuestPassPage } from "./routes/guestPassPage";
import { HostDecision } from "./routes/hostDecision";
import { ListMyVisitors } from "./routes/listMyVisitors";
import { ListRegularVisitors } from "./routes/listRegularVisitors";
import { ListVisitors } from "./routes/listVisitors";
import { PhoneApproval } from "./routes/phoneApproval";
import { RegularVisitorCheckIn } from "./routes/regularVisitorCheckIn";
import { RevokeRegularVisitor } from "./routes/revokeRegularVisitor";
import { UpdateVisitorSettings } from "./routes/updateVisitorSettings";
import { countAwaitingGuests } from "./service";
import { visitors } from "./tables";

const flag = "tamu" as const;
const resident = tenantAccess(ROLES.RESIDENT, flag);
// Deciding on guests is the staff's (spec: S); visitors.ts's `isStaff` is the same group. The gate is
// theirs and the guard's (satpam): today's guest list, check-in and check-out, nothing else.
const staff = tenantAccess(ROLES.STAFF, flag);
const gate = tenantAccess(ROLES.GATE, flag);
const member = tenantAccess(ROLES.MEMBER, flag);
const admin = tenantAccess(ROLES.ADMIN, flag);
// Regular visitors' cards: the household's own, and every card for the gate (the guard included).
const memberOrGate = tenantAccess([...ROLES.MEMBER, "satpam"], flag);

// Static paths before `/:id`, so `mine`, `settings` and `gate/...` are never read as ids.
export const visitorModule = defineModule({
  name: "visitor",
  errorCodes: VISITOR_ERROR_CODES,
  // Served with ETag, If-None-Match and If-Match (platform/conditional, ADR 0035).
  versioned: [versioned("/api/visitor/:id", visitors)],
  fileReferences: visitorFileReferences,
  personalData: visitorPersonalData,
  routes: [
    { method: "post", path: "/api/visitor", endpoint: CreateVisitor, access: resident },
    { method: "get", path: "/api/visitor/mine", endpoint: ListMyVisitors, access: resident },
    // What a registration must give (issue 42): every member reads it (the resident's form), the admin sets it.
    { method: "get", path: "/api/visitor/settings", endpoint: GetVisitorSettings, access: member },
    { method: "put", path: "/api/visitor/settings", endpoint: UpdateVisitorSettings, access: admin },
    { method: "get", path: "/api/visitor", endpoint: ListVisitors, access: gate },
    { method: "post", path: "/api/visitor/gate/check-in", endpoint: GateCheckIn, access: gate },
    { method: "post", path: "/api/visitor/gate/check-out", endpoint: GateCheckOut, access: gate },
    // Issue 45: the guard registers a walk-in; the host's household answers it from their phone, or the
    // guard approves it after calling them.
    { method: "post", path: "/api/visitor/gate/walk-in", endpoint: CreateWalkIn, access: gate },
    // Issue 45: regular visitors (domestic help, drivers) on a recurring card with time windows.
    // A household issues its own card; staff (spec: S, as for deciding guests) one for a house they name.
    { method: "post", path: "/api/visitor/regular", endpoint: CreateRegularVisitor, access: member },
    { method: "get", path: "/api/visitor/regular", endpoint: ListRegularVisitors, access: memberOrGate },
    // A POST to its own path, not DELETE on `/regular/:id`: that path would read as `/:id/qr` (one
    // segment fewer than the card's own verbs, so no route of the guest book is ambiguous).
    {
      method: "post",
      path: "/api/visitor/regular/:id/cabut",
      endpoint: RevokeRegularVisitor,
      access: tenantAccess(ROLES.MEMBER, flag),
    },
    {
      method: "post",
      path: "/api/visitor/regular/:id/check-in",
      endpoint: RegularVisitorCheckIn,
      access: gate,
    },
    { method: "get", path: "/api/visitor/:id", endpoint: GetVisitor, access: member },
    { method: "get", path: "/api/visitor/:id/qr", endpoint: GetVisitorQr, access: member },
    { method: "put", path: "/api/visitor/:id", endpoint: DecideVisitor, access: staff },
    { method: "post", path: "/api/visitor/:id/tuan-rumah", endpoint: HostDecision, access: resident },
    { method: "post", path: "/api/visitor/:id/telepon", endpoint: PhoneApproval, access: gate },
    // Issue 45: a walk-in's photo, taken by the guard; the host's household sees it (checked in the verb).
    { method: "post", path: "/api/visitor/:id/foto", endpoint: AttachWalkInPhoto, access: gate },
    { method: "get", path: "/api/visitor/:id/foto", endpoint: GetWalkInPhoto, access: memberOrGate },
    // Public: the approval email's pass link, forwarded to the guest. The signed pass is the link's
    // secret (pass-link.ts); the web app takes this path over once it exists.
    {
      method: "get",
      path: "/tamu/:pass",
      endpoint: GuestPassPage,
      access: { scope: "public" },
      secret: { params: ["pass"] },
    },
  ],
  indicators: [
    { key: "guestsAwaitingApproval", label: "Guests awaiting approval", flag, compute: countAwaitingGuests },
  ],
});
