import { ROLES, tenantAccess } from "../../core/http/access";
import { defineModule } from "../../core/module";
import { AddFamilyMember } from "./routes/addFamilyMember";
import { CreateFamilyCard } from "./routes/createFamilyCard";
import { CreateUnit } from "./routes/createUnit";
import { GetFamilyCard } from "./routes/getFamilyCard";
import { GetMyHousehold } from "./routes/getMyHousehold";
import { GetUnit } from "./routes/getUnit";
import { ListFamilyCards } from "./routes/listFamilyCards";
import { ListUnits } from "./routes/listUnits";

/** The spec: the registry is opened by the secretary and admin roles. */
const registry = tenantAccess(ROLES.SECRETARIAT, "warga");
/** A resident sees only their own household, masked: enough to request a letter for a family member. */
const resident = tenantAccess(ROLES.RESIDENT, "warga");

export const kependudukanModule = defineModule({
  name: "kependudukan",
  // How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure).
  personalData: {
    units: { other: ["id", "block", "number", "created_at", "updated_at"] },
    family_cards: {
      personal: ["kk_number", "head_name", "head_nik", "head_whatsapp"],
      other: ["id", "unit_id", "created_at", "updated_at"],
    },
    family_members: {
      personal: ["name", "nik", "relationship", "sex", "birth_date", "birth_place"],
      other: ["id", "family_card_id", "created_at", "updated_at"],
    },
  },
  routes: [
    { method: "get", path: "/api/kependudukan/units", endpoint: ListUnits, access: registry },
    { method: "get", path: "/api/kependudukan/units/:id", endpoint: GetUnit, access: registry },
    { method: "post", path: "/api/kependudukan/units", endpoint: CreateUnit, access: registry },
    { method: "get", path: "/api/kependudukan/household", endpoint: GetMyHousehold, access: resident },
    { method: "get", path: "/api/kependudukan/kk", endpoint: ListFamilyCards, access: registry },
    { method: "post", path: "/api/kependudukan/kk", endpoint: CreateFamilyCard, access: registry },
    { method: "get", path: "/api/kependudukan/kk/:id", endpoint: GetFamilyCard, access: registry },
    { method: "post", path: "/api/kependudukan/kk/:id/members", endpoint: AddFamilyMember, access: registry },
  ],
});
