import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { GATE_ERROR_CODES } from "./errors";
import { gatePersonalData } from "./manifest";
import { ActivateDevice } from "./routes/activateDevice";
import { CreateDevice } from "./routes/createDevice";
import { DeactivateDevice } from "./routes/deactivateDevice";
import { DeleteDevice } from "./routes/deleteDevice";
import { GateWebhook } from "./routes/gateWebhook";
import { ListDeviceEvents } from "./routes/listDeviceEvents";
import { ListDevices } from "./routes/listDevices";

const admin = tenantAccess(ROLES.ADMIN, "tamu");

export const gateModule = defineModule({
  name: "gate",
  errorCodes: GATE_ERROR_CODES,
  personalData: gatePersonalData,
  routes: [
    { method: "get", path: "/api/gate-devices", endpoint: ListDevices, access: admin },
    { method: "post", path: "/api/gate-devices", endpoint: CreateDevice, access: admin },
    { method: "post", path: "/api/gate-devices/:id/deactivate", endpoint: DeactivateDevice, access: admin },
    { method: "post", path: "/api/gate-devices/:id/activate", endpoint: ActivateDevice, access: admin },
    { method: "delete", path: "/api/gate-devices/:id", endpoint: DeleteDevice, access: admin },
    { method: "get", path: "/api/gate-devices/:id/events", endpoint: ListDeviceEvents, access: admin },
    // The device's key is checked by the guard, which then knows the device's tenant (ADR 0008).
    {
      method: "post",
      path: "/api/gate-hardware/webhook",
      endpoint: GateWebhook,
      access: { scope: "device", flag: "tamu" },
    },
  ],
});
