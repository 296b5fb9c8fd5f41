import { ROLES, tenantAccess } from "../../core/http/access";
import { indicator } from "../../core/indicators";
import { defineModule } from "../../core/module";
import { versioned } from "../../platform/conditional";
import { countNewComplaints, openComplaintsQuery } from "./complaints";
import { ASPIRASI_ERROR_CODES } from "./errors";
import { aspirasiFileReferences, aspirasiPersonalData } from "./manifest";
import { CreateComplaint } from "./routes/createComplaint";
import { CreateProposal } from "./routes/createProposal";
import { CreateSuggestion } from "./routes/createSuggestion";
import { DecideProposal } from "./routes/decideProposal";
import { EndorseProposal } from "./routes/endorseProposal";
import { GetComplaint } from "./routes/getComplaint";
import { GetProposal } from "./routes/getProposal";
import { ListComplaints } from "./routes/listComplaints";
import { ListMyComplaints } from "./routes/listMyComplaints";
import { ListProposals } from "./routes/listProposals";
import { ListSuggestions } from "./routes/listSuggestions";
import { MarkSuggestionRead } from "./routes/markSuggestionRead";
import { UpdateComplaint } from "./routes/updateComplaint";
import { complaints, proposals } from "./tables";

/**
 * Complaints, suggestions and proposals have no feature flag: the spec's flags name optional modules
 * (pasar, tamu, musyawarah, surat, warga), while a channel from residents to their staff is part of
 * every community — and the dashboard's "new complaints" indicator is listed without one.
 */
const resident = tenantAccess(ROLES.RESIDENT);
/** Who answers complaints, reads suggestions and decides proposals: the community's staff (spec: S). */
const staff = tenantAccess(ROLES.STAFF);
/** Every member; for one complaint a resident reaches only their own (the service answers 404). */
const member = tenantAccess(ROLES.MEMBER);

export const aspirasiModule = defineModule({
  name: "aspirasi",
  errorCodes: ASPIRASI_ERROR_CODES,
  // Served with ETag, If-None-Match and If-Match (platform/conditional, ADR 0035).
  versioned: [versioned("/api/pengaduan/:id", complaints), versioned("/api/usulan/:id", proposals)],
  fileReferences: aspirasiFileReferences,
  personalData: aspirasiPersonalData,
  routes: [
    { method: "post", path: "/api/pengaduan", endpoint: CreateComplaint, access: resident },
    { method: "get", path: "/api/pengaduan/mine", endpoint: ListMyComplaints, access: resident },
    { method: "get", path: "/api/pengaduan", endpoint: ListComplaints, access: staff },
    { method: "get", path: "/api/pengaduan/:id", endpoint: GetComplaint, access: member },
    { method: "put", path: "/api/pengaduan/:id", endpoint: UpdateComplaint, access: staff },
    { method: "post", path: "/api/saran", endpoint: CreateSuggestion, access: resident },
    { method: "get", path: "/api/saran", endpoint: ListSuggestions, access: staff },
    { method: "put", path: "/api/saran/:id/read", endpoint: MarkSuggestionRead, access: staff },
    { method: "post", path: "/api/usulan", endpoint: CreateProposal, access: resident },
    { method: "get", path: "/api/usulan", endpoint: ListProposals, access: member },
    { method: "get", path: "/api/usulan/:id", endpoint: GetProposal, access: member },
    { method: "post", path: "/api/usulan/:id/dukung", endpoint: EndorseProposal, access: resident },
    { method: "put", path: "/api/usulan/:id", endpoint: DecideProposal, access: staff },
  ],
  indicators: [
    { key: "newComplaints", label: "New complaints", compute: countNewComplaints },
    indicator({ key: "openComplaints", label: "Open complaints", query: openComplaintsQuery }),
  ],
});
