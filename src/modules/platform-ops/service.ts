/**
 * The platform-ops module's public face (docs/adr/0052-a-modules-public-face.md): the verbs its routes, jobs
 * and other modules use. The logic lives in files named for what they do. The tenants module's closing of
 * a community asks for its final archive here (archive-exports.ts, archives.ts).
 */
export { closingExport, exportAgain, exportSince, isArchiveUnderWay, runExport } from "./archive-exports";
export { CLOSED_ARCHIVE_TTL_DAYS } from "./archives";
export { platformHealth } from "./platformHealth";
