/**
 * The visitor module's public face (docs/adr/0052-a-modules-public-face.md): the verbs its routes, jobs
 * and other modules use. The logic lives in files named for what they do.
 */
export { decideVisitor, hostDecision, phoneApproval, revokePassesOf } from "./decisions";
export { checkGate } from "./gate-check";
export {
  type GateDirection,
  type GatePassed,
  type GateRefusal,
  type GateScan,
  gatePass,
  gateRefusalError,
  passGate,
  type ScanLog,
  type ScanRecord,
} from "./gate-pass";
export type { GuestPass, PassState } from "./pass-link";
export { attachWalkInPhoto, createVisitor, createWalkIn, walkInPhoto } from "./registration";
export {
  countAwaitingGuests,
  getVisitor,
  listMyVisitors,
  listVisitors,
  presentVisitor,
  visitorQrSvg,
} from "./visitors";
