import { ROLES, tenantAccess } from "../../core/http/access";
import { CRON, tenantJob } from "../../core/jobs";
import { defineModule } from "../../core/module";
import { versioned } from "../../platform/conditional";
import { remindTomorrow } from "./agenda";
import { retryOwedBerita } from "./berita";
import { KONTEN_ERROR_CODES } from "./errors";
import { kontenFileReferences, kontenPersonalData } from "./manifest";
import { retryOwedPengumuman } from "./pengumuman";
import { CreateAgenda } from "./routes/createAgenda";
import { CreateBerita } from "./routes/createBerita";
import { CreatePengumuman } from "./routes/createPengumuman";
import { DeleteAgenda } from "./routes/deleteAgenda";
import { DeleteBerita } from "./routes/deleteBerita";
import { DeletePengumuman } from "./routes/deletePengumuman";
import { GetAgenda } from "./routes/getAgenda";
import { GetBerita } from "./routes/getBerita";
import { GetPengumuman } from "./routes/getPengumuman";
import { GetPengumumanDelivery } from "./routes/getPengumumanDelivery";
import { ListAgenda } from "./routes/listAgenda";
import { ListBerita } from "./routes/listBerita";
import { ListPengumuman } from "./routes/listPengumuman";
import { UpdateAgenda } from "./routes/updateAgenda";
import { UpdateBerita } from "./routes/updateBerita";
import { UpdatePengumuman } from "./routes/updatePengumuman";
import { GetWatchSummary } from "./routes/watch";
import { agenda, berita, pengumuman } from "./tables";

const member = tenantAccess(ROLES.MEMBER);
// Content is written by the secretariat (sekretaris, admin), as the spec's content rows say.
const writer = tenantAccess(ROLES.SECRETARIAT);

export const kontenModule = defineModule({
  name: "konten",
  errorCodes: KONTEN_ERROR_CODES,
  // Served with ETag, If-None-Match and If-Match (platform/conditional, ADR 0035).
  versioned: [
    versioned("/api/berita/:id", berita),
    versioned("/api/pengumuman/:id", pengumuman),
    versioned("/api/agenda/:id", agenda),
  ],
  fileReferences: kontenFileReferences,
  personalData: kontenPersonalData,
  routes: [
    { method: "get", path: "/api/berita", endpoint: ListBerita, access: member },
    { method: "post", path: "/api/berita", endpoint: CreateBerita, access: writer },
    { method: "get", path: "/api/berita/:id", endpoint: GetBerita, access: member },
    { method: "put", path: "/api/berita/:id", endpoint: UpdateBerita, access: writer },
    { method: "delete", path: "/api/berita/:id", endpoint: DeleteBerita, access: writer },
    { method: "get", path: "/api/pengumuman", endpoint: ListPengumuman, access: member },
    { method: "post", path: "/api/pengumuman", endpoint: CreatePengumuman, access: writer },
    { method: "get", path: "/api/pengumuman/:id", endpoint: GetPengumuman, access: member },
    { method: "put", path: "/api/pengumuman/:id", endpoint: UpdatePengumuman, access: writer },
    { method: "delete", path: "/api/pengumuman/:id", endpoint: DeletePengumuman, access: writer },
    {
      method: "get",
      path: "/api/pengumuman/:id/pengiriman",
      endpoint: GetPengumumanDelivery,
      access: writer,
    },
    { method: "get", path: "/api/agenda", endpoint: ListAgenda, access: member },
    { method: "post", path: "/api/agenda", endpoint: CreateAgenda, access: writer },
    { method: "get", path: "/api/agenda/:id", endpoint: GetAgenda, access: member },
    { method: "put", path: "/api/agenda/:id", endpoint: UpdateAgenda, access: writer },
    { method: "delete", path: "/api/agenda/:id", endpoint: DeleteAgenda, access: writer },
    { method: "get", path: "/api/watch/summary", endpoint: GetWatchSummary, access: member },
  ],
  jobs: [
    // 18:00 WIB reminders for the next day's events; the job decides the hour itself.
    tenantJob("konten.agenda-reminders", CRON.HOURLY, (ctx, at) => remindTomorrow(ctx, at)),
    // Fan-outs owed because the notification service was down when the content was published.
    tenantJob("konten.owed-fanouts", CRON.HOURLY, async (ctx) => ({
      berita: await retryOwedBerita(ctx),
      pengumuman: await retryOwedPengumuman(ctx),
    })),
  ],
});
