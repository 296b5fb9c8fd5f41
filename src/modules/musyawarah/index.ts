import type { TenantRole } from "../../core/context";
import { ANY_MEMBER } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { CastVote } from "./routes/castVote";
import { CreatePoll } from "./routes/createPoll";
import { DeletePoll } from "./routes/deletePoll";
import { GetPoll } from "./routes/getPoll";
import { ListPolls } from "./routes/listPolls";
import { ListVotes } from "./routes/listVotes";
import { UpdatePoll } from "./routes/updatePoll";
import { countActivePolls } from "./service";

const flag = "musyawarah" as const;
const organisers: TenantRole[] = ["sekretaris", "admin"];

export const musyawarahModule = defineModule({
  name: "musyawarah",
  routes: [
    {
      method: "get",
      path: "/api/musyawarah",
      endpoint: ListPolls,
      access: { scope: "tenant", roles: ANY_MEMBER, flag },
    },
    {
      method: "post",
      path: "/api/musyawarah",
      endpoint: CreatePoll,
      access: { scope: "tenant", roles: organisers, flag },
    },
    {
      method: "get",
      path: "/api/musyawarah/:id",
      endpoint: GetPoll,
      access: { scope: "tenant", roles: ANY_MEMBER, flag },
    },
    {
      method: "put",
      path: "/api/musyawarah/:id",
      endpoint: UpdatePoll,
      access: { scope: "tenant", roles: organisers, flag },
    },
    {
      method: "delete",
      path: "/api/musyawarah/:id",
      endpoint: DeletePoll,
      access: { scope: "tenant", roles: organisers, flag },
    },
    {
      method: "post",
      path: "/api/musyawarah/:id/vote",
      endpoint: CastVote,
      access: { scope: "tenant", roles: ["warga"], flag },
    },
    {
      method: "get",
      path: "/api/musyawarah/:id/votes",
      endpoint: ListVotes,
      access: { scope: "tenant", roles: organisers, flag },
    },
  ],
  indicators: [{ key: "activePolls", label: "Active polls", flag, compute: countActivePolls }],
});
