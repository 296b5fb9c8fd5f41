import { ROLES } from "../../core/http/access";
import { createMemberQuota } from "../../core/rateLimit";

/**
 * Guest passes one member may register in 24 hours (ADR 0033): a family gathering or a renovation crew
 * fits in 30, a script flooding the gate list and the staff's approval queue does not. Whoever works
 * the gate (the satpam, and the staff who stand in for them) registers guests for others: not counted.
 */
export const visitorQuota = createMemberQuota({
  "tamu-create:member": {
    limit: 30,
    windowSeconds: 24 * 60 * 60,
    quota: "30 guest passes per member per day",
    exempt: ROLES.GATE,
  },
});
