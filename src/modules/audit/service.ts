/**
 * The audit module's public face (docs/adr/0052-a-modules-public-face.md): the verbs its routes, jobs
 * and other modules use. The logic lives in files named for what they do.
 */
export { listPlatformAudit, listTenantAudit } from "./trail";
