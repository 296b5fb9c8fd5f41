import { ANY_MEMBER } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { countNewComplaints } from "./complaints";
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
import { ASPIRASI_STAFF } from "./shared";

/**
 * Complaints, suggestions and proposals have no feature flag: the spec's flags name optional modules
 * (pasar, tamu, musyawarah, surat, warga), while a channel from residents to their staff is part of
 * every community — and the dashboard's "new complaints" indicator is listed without one.
 */
const resident = { scope: "tenant", roles: ["warga"] } as const;
const staff = { scope: "tenant", roles: ASPIRASI_STAFF } as const;
const ownerOrStaff = { scope: "tenant", roles: ["warga", ...ASPIRASI_STAFF] } as const;
const member = { scope: "tenant", roles: ANY_MEMBER } as const;

export const aspirasiModule = defineModule({
  name: "aspirasi",
  routes: [
    { method: "post", path: "/api/pengaduan", endpoint: CreateComplaint, access: resident },
    { method: "get", path: "/api/pengaduan/mine", endpoint: ListMyComplaints, access: resident },
    { method: "get", path: "/api/pengaduan", endpoint: ListComplaints, access: staff },
    { method: "get", path: "/api/pengaduan/:id", endpoint: GetComplaint, access: ownerOrStaff },
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
  indicators: [{ key: "newComplaints", label: "New complaints", compute: countNewComplaints }],
});
