/**
 * The identity module's public face (docs/adr/0052-a-modules-public-face.md): the verbs its routes, jobs
 * and other modules use. The logic lives in files named for what they do.
 */
export { isAccountConflict, isPersonTaken, personTaken } from "./accountConflicts";
export {
  createResidentAccount,
  type InvitationResult,
  type InvitingCtx,
  inviteMember,
  inviteResident,
  type NewMember,
  type NewResident,
  type PreparedAccount,
  type PreparedInvitation,
} from "./accounts";
export { checkRemovable, endMembership, setMemberPerson, setMemberRoles, setMemberUnit } from "./committee";
export {
  type AdminInvitee,
  adminCounts,
  endCommunitySessions,
  forgetEndedSessions,
  inviteAdmin,
  invitedAdminCount,
  type PreparedAdminInvitation,
  tenantsWithoutAdmin,
} from "./communities";
export {
  callerUnitId,
  isProfileComplete,
  listResidentAccounts,
  me,
  membershipIn,
  membershipsOf,
  membersWithContact,
  officersOf,
  ownCommunityCtx,
  requireCompleteProfile,
  residentsAtUnit,
  residentsOf,
  type TenantRow,
  tenantAdminContacts,
  tenantRef,
  type UserRow,
  userContact,
  userContacts,
  userNames,
  versionedMembership,
} from "./directory";
export { setInvitationContact } from "./invitationContact";
export { maskEmail, maskWhatsapp } from "./masking";
export {
  type CommitteeMember,
  getMember,
  listMembers,
  type MemberListInput,
  type MemberStatus,
} from "./memberList";
export { endMembershipsOnMoveOut, endMoveOutGrace, MOVE_OUT_GRACE_DAYS } from "./moveOut";
export {
  listPendingInvitations,
  type PendingInvitation,
  revokeInvitation,
} from "./pendingInvitations";
export { issueSignInCode, SIGN_IN_CODE_TTL_SECONDS } from "./signInCodes";
