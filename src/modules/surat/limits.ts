import { ROLES } from "../../core/http/access";
import { createMemberQuota } from "../../core/rateLimit";

/**
 * Letter requests one member may file in 24 hours (ADR 0033): a household renewing its papers asks for
 * a few letters at once, not ten. The letter staff prepare letters for residents who cannot ask
 * themselves, so a staff member (the route table's letter staff) is not counted.
 */
export const suratQuota = createMemberQuota({
  "surat-create:member": {
    limit: 10,
    windowSeconds: 24 * 60 * 60,
    quota: "10 letter requests per member per day",
    exempt: ROLES.STAFF,
  },
});
