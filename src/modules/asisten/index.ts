import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { versioned } from "../../platform/conditional";
import { ASISTEN_ERROR_CODES } from "./errors";
import { asistenPersonalData } from "./manifest";
import { Chat } from "./routes/chat";
import { GetInfoRt } from "./routes/getInfoRt";
import { GetAssistantStatus } from "./routes/getStatus";
import { UpdateInfoRt } from "./routes/updateInfoRt";
import { asistenInfo } from "./tables";

/**
 * The resident assistant (issue 17; spec: R). No feature flag: the spec names none for it. The text it
 * tells residents about rules and the agenda is written by the secretariat and readable by every member.
 */
const resident = tenantAccess(ROLES.RESIDENT);

export const asistenModule = defineModule({
  name: "asisten",
  errorCodes: ASISTEN_ERROR_CODES,
  // Served with ETag, If-None-Match and If-Match (platform/conditional, ADR 0035).
  versioned: [versioned("/api/ai/info-rt", asistenInfo, { id: "rt" })],
  personalData: asistenPersonalData,
  routes: [
    { method: "get", path: "/api/ai/status", endpoint: GetAssistantStatus, access: resident },
    { method: "post", path: "/api/ai/chat", endpoint: Chat, access: resident },
    { method: "get", path: "/api/ai/info-rt", endpoint: GetInfoRt, access: tenantAccess(ROLES.MEMBER) },
    {
      method: "put",
      path: "/api/ai/info-rt",
      endpoint: UpdateInfoRt,
      access: tenantAccess(ROLES.SECRETARIAT),
    },
  ],
});
