import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { versioned } from "../../platform/conditional";
import { GALERI_ERROR_CODES } from "./errors";
import { galeriFileReferences, galeriPersonalData } from "./manifest";
import { AddPhoto } from "./routes/addPhoto";
import { CreateAlbum } from "./routes/createAlbum";
import { DeleteAlbum } from "./routes/deleteAlbum";
import { DeletePhoto } from "./routes/deletePhoto";
import { GetAlbum } from "./routes/getAlbum";
import { ListAlbums } from "./routes/listAlbums";
import { galleryAlbums } from "./tables";

/** Institutional content is the secretariat's (ROLES.SECRETARIAT); every member looks. No flag in the spec. */
const member = tenantAccess(ROLES.MEMBER);
const secretariat = tenantAccess(ROLES.SECRETARIAT);

export const galeriModule = defineModule({
  name: "galeri",
  errorCodes: GALERI_ERROR_CODES,
  // Served with ETag, If-None-Match and If-Match (platform/conditional, ADR 0035).
  versioned: [versioned("/api/galeri/:id", galleryAlbums)],
  fileReferences: galeriFileReferences,
  personalData: galeriPersonalData,
  routes: [
    { method: "get", path: "/api/galeri", endpoint: ListAlbums, access: member },
    { method: "post", path: "/api/galeri", endpoint: CreateAlbum, access: secretariat },
    { method: "get", path: "/api/galeri/:id", endpoint: GetAlbum, access: member },
    { method: "delete", path: "/api/galeri/:id", endpoint: DeleteAlbum, access: secretariat },
    { method: "post", path: "/api/galeri/:id/foto", endpoint: AddPhoto, access: secretariat },
    { method: "delete", path: "/api/galeri/:id/foto/:photoId", endpoint: DeletePhoto, access: secretariat },
  ],
});
