import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { versioned } from "../../platform/conditional";
import { PASAR_ERROR_CODES } from "./errors";
import { pasarFileReferences, pasarPersonalData } from "./manifest";
import { CreateListing } from "./routes/createListing";
import { DeleteListing } from "./routes/deleteListing";
import { GetListing } from "./routes/getListing";
import { ListListings } from "./routes/listListings";
import { ListMyListings } from "./routes/listMine";
import { ModerateListing } from "./routes/moderateListing";
import { UpdateListing } from "./routes/updateListing";
import { countActiveListings } from "./service";
import { pasarListings } from "./tables";

const flag = "pasar" as const;
/** Every member may buy and sell (staff live in the neighbourhood too); only the seller edits (verb). */
const member = tenantAccess(ROLES.MEMBER, flag);
/** Moderation is the secretariat's, like the other content. */
const moderator = tenantAccess(ROLES.SECRETARIAT, flag);

// Static paths before `/:id`.
export const pasarModule = defineModule({
  name: "pasar",
  errorCodes: PASAR_ERROR_CODES,
  // Served with ETag, If-None-Match and If-Match (platform/conditional, ADR 0035).
  versioned: [versioned("/api/pasar/listings/:id", pasarListings)],
  fileReferences: pasarFileReferences,
  personalData: pasarPersonalData,
  routes: [
    { method: "get", path: "/api/pasar/mine", endpoint: ListMyListings, access: member },
    { method: "get", path: "/api/pasar/listings", endpoint: ListListings, access: member },
    { method: "post", path: "/api/pasar/listings", endpoint: CreateListing, access: member },
    { method: "get", path: "/api/pasar/listings/:id", endpoint: GetListing, access: member },
    { method: "put", path: "/api/pasar/listings/:id", endpoint: UpdateListing, access: member },
    { method: "delete", path: "/api/pasar/listings/:id", endpoint: DeleteListing, access: member },
    { method: "put", path: "/api/pasar/listings/:id/moderasi", endpoint: ModerateListing, access: moderator },
  ],
  indicators: [
    { key: "pasarActiveListings", label: "Active marketplace listings", flag, compute: countActiveListings },
  ],
});
