import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { versioned } from "../../platform/conditional";
import { MUSYAWARAH_ERROR_CODES } from "./errors";
import { musyawarahPersonalData } from "./manifest";
import { CastVote } from "./routes/castVote";
import { CreatePoll } from "./routes/createPoll";
import { DeletePoll } from "./routes/deletePoll";
import { GetPoll } from "./routes/getPoll";
import { ListPolls } from "./routes/listPolls";
import { ListVotes } from "./routes/listVotes";
import { UpdatePoll } from "./routes/updatePoll";
import { countActivePolls } from "./service";
import { polls } from "./tables";

const flag = "musyawarah" as const;
// Polls are run by the staff (spec: S creates, updates and deletes; issue 42: every duty); residents vote;
// every member reads them (polls.ts and poll-reads.ts say what each sees).
const organisers = tenantAccess(ROLES.STAFF, flag);
const members = tenantAccess(ROLES.MEMBER, flag);
const residents = tenantAccess(ROLES.RESIDENT, flag);

export const musyawarahModule = defineModule({
  name: "musyawarah",
  errorCodes: MUSYAWARAH_ERROR_CODES,
  // Served with ETag, If-None-Match and If-Match (platform/conditional, ADR 0035).
  versioned: [versioned("/api/musyawarah/:id", polls)],
  personalData: musyawarahPersonalData,
  routes: [
    { method: "get", path: "/api/musyawarah", endpoint: ListPolls, access: members },
    { method: "post", path: "/api/musyawarah", endpoint: CreatePoll, access: organisers },
    { method: "get", path: "/api/musyawarah/:id", endpoint: GetPoll, access: members },
    { method: "put", path: "/api/musyawarah/:id", endpoint: UpdatePoll, access: organisers },
    { method: "delete", path: "/api/musyawarah/:id", endpoint: DeletePoll, access: organisers },
    { method: "post", path: "/api/musyawarah/:id/vote", endpoint: CastVote, access: residents },
    { method: "get", path: "/api/musyawarah/:id/votes", endpoint: ListVotes, access: organisers },
  ],
  indicators: [{ key: "activePolls", label: "Active polls", flag, compute: countActivePolls }],
});
