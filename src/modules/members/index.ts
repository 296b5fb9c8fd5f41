import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { versionedMembership } from "../identity/service";
import { GetMember } from "./routes/getMember";
import { InviteMember } from "./routes/inviteMember";
import { IssueSignInCode } from "./routes/issueSignInCode";
import { LinkMemberPerson } from "./routes/linkMemberPerson";
import { ListInvitations } from "./routes/listInvitations";
import { ListMembers } from "./routes/listMembers";
import { RemoveMember } from "./routes/removeMember";
import { RevokeInvitation } from "./routes/revokeInvitation";
import { SetInvitationContact } from "./routes/setInvitationContact";
import { SetMemberRoles } from "./routes/setMemberRoles";
import { SetMemberUnit } from "./routes/setMemberUnit";

// Issue 27: the committee is the admin's; every officer may read who is on it (contact masked for those
// who are not admins); the secretariat keeps the link between accounts and the registry. No feature
// flag: a community cannot run without its members.
const staff = tenantAccess(ROLES.STAFF);
const admin = tenantAccess(ROLES.ADMIN);
const secretariat = tenantAccess(ROLES.SECRETARIAT);

export const membersModule = defineModule({
  name: "members",
  // One membership row (the platform database's, of this community only): its duties, its person link
  // and its removal take the ETag of its GET (ADR 0035).
  versioned: [
    versionedMembership("/api/members/:userId"),
    versionedMembership("/api/members/:userId/roles"),
    versionedMembership("/api/members/:userId/person"),
    versionedMembership("/api/members/:userId/unit"),
  ],
  routes: [
    { method: "get", path: "/api/members", endpoint: ListMembers, access: staff },
    // Before `:userId`: the invitations' own path is not a member's (issue 44).
    { method: "get", path: "/api/members/invitations", endpoint: ListInvitations, access: admin },
    { method: "get", path: "/api/members/:userId", endpoint: GetMember, access: staff },
    { method: "post", path: "/api/members/invitations", endpoint: InviteMember, access: admin },
    { method: "delete", path: "/api/members/invitations/:id", endpoint: RevokeInvitation, access: admin },
    // Issue 45: a contact added to an invitation is where the next link goes: the admin's, as inviting is.
    {
      method: "put",
      path: "/api/members/invitations/:id/contact",
      endpoint: SetInvitationContact,
      access: admin,
    },
    // Issue 45: a code handed over in person is a credential for the account: the admin's, as invitations are.
    { method: "post", path: "/api/members/:userId/sign-in-code", endpoint: IssueSignInCode, access: admin },
    { method: "put", path: "/api/members/:userId/roles", endpoint: SetMemberRoles, access: admin },
    { method: "put", path: "/api/members/:userId/person", endpoint: LinkMemberPerson, access: secretariat },
    // Issue 44: a house is granted by the secretariat (or by accepting a resident's `rumah` request).
    { method: "put", path: "/api/members/:userId/unit", endpoint: SetMemberUnit, access: secretariat },
    { method: "delete", path: "/api/members/:userId", endpoint: RemoveMember, access: admin },
  ],
});
