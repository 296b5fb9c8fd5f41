import { createMemberQuota } from "../../core/rateLimit";

const DAY = 24 * 60 * 60;

/**
 * What one member may send their community in 24 hours (ADR 0033). Generous for real use: a resident
 * with a bad week files a handful of complaints, not twenty; the limits exist so one angry or hijacked
 * account cannot bury the secretariat. Staff are not exempt: they file these as residents too.
 */
export const aspirasiQuota = createMemberQuota({
  "pengaduan-create:member": { limit: 20, windowSeconds: DAY, quota: "20 complaints per member per day" },
  "saran-create:member": { limit: 20, windowSeconds: DAY, quota: "20 suggestions per member per day" },
  "usulan-create:member": { limit: 10, windowSeconds: DAY, quota: "10 proposals per member per day" },
  // One endorsement per proposal is already the rule; this caps a script endorsing every proposal at once.
  "usulan-endorse:member": { limit: 60, windowSeconds: DAY, quota: "60 endorsements per member per day" },
});
