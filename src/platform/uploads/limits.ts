import { ROLES } from "../../core/http/access";
import { createMemberQuota } from "../../core/rateLimit";

/**
 * Bytes one member may upload through `POST /api/files` in 24 hours (ADR 0033). A phone photo is 2–4 MB
 * before clean-up, so 50 MB is a dozen photos of proof of payment, complaint evidence and market
 * listings a day; past that it is a script filling the bucket. Staff upload receipts, cash-book
 * attachments and covers as their work: not counted (the per-hour count still applies to them).
 */
export const uploadQuota = createMemberQuota({
  "files-bytes:member": {
    limit: 50 * 1024 * 1024,
    windowSeconds: 24 * 60 * 60,
    quota: "50 MB of uploads per member per day",
    unit: "bytes",
    exempt: ROLES.STAFF,
  },
});
