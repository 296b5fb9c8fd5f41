import { tenantFiles } from "../../core/db/tenant-schema";
import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule, personalColumns, personalData } from "../../core/module";
import { UPLOADS_ERROR_CODES } from "./errors";
import { GetFile } from "./routes/getFile";
import { UploadFile } from "./routes/uploadFile";

export { ownFileIdOf, requireOwnImages } from "./images";
export { FILE_PURPOSES, type FilePurpose, PURPOSE_POLICY } from "./purposes";
export {
  planTenantFileDeletion,
  prepareTenantFile,
  presentTenantFile,
  requireTenantFile,
  serveAuthorisedTenantFile,
  type TenantFile,
  tenantFilesByIds,
  tenantFileUrl,
} from "./store";
export { FILE_SWEEP_GRACE_MS, FILE_SWEEP_JOB, fileSweepModule, sweepUnattachedFiles } from "./sweep";

/**
 * The tenant's file store. Every member reaches both routes; what they may upload or read is decided
 * per purpose (purposes.ts), in the verbs.
 */
export const uploadsModule = defineModule({
  name: "uploads",
  errorCodes: UPLOADS_ERROR_CODES,
  // How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure).
  // The image bytes are in R2, not in these columns; the key is built from tenant, purpose and file id.
  personalData: personalData(
    personalColumns(tenantFiles, {
      subjects: [tenantFiles.uploadedBy],
      other: [
        tenantFiles.id,
        tenantFiles.purpose,
        tenantFiles.r2Key,
        tenantFiles.contentType,
        tenantFiles.sha256,
        tenantFiles.createdAt,
      ],
    }),
  ),
  routes: [
    { method: "post", path: "/api/files", endpoint: UploadFile, access: tenantAccess(ROLES.MEMBER) },
    { method: "get", path: "/api/files/:id", endpoint: GetFile, access: tenantAccess(ROLES.MEMBER) },
  ],
});
