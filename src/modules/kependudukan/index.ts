import { ROLES, tenantAccess } from "../../core/http/access";
import { indicator } from "../../core/indicators";
import { defineModule } from "../../core/module";
import { versioned } from "../../platform/conditional";
import { KEPENDUDUKAN_ERROR_CODES } from "./errors";
import { kependudukanPersonalData } from "./manifest";
import { AddFamilyMember } from "./routes/addFamilyMember";
import { AddVehicle } from "./routes/addVehicle";
import { CreateFamilyCard } from "./routes/createFamilyCard";
import { CreateUnit } from "./routes/createUnit";
import { DecideCorrection } from "./routes/decideCorrection";
import { DeleteFamilyCard } from "./routes/deleteFamilyCard";
import { DeleteFamilyMember } from "./routes/deleteFamilyMember";
import { DeleteUnit } from "./routes/deleteUnit";
import { DeleteVehicle } from "./routes/deleteVehicle";
import { ExportRegistry } from "./routes/exportRegistry";
import { GetFamilyCard } from "./routes/getFamilyCard";
import { GetMyHousehold } from "./routes/getMyHousehold";
import { GetStatistik } from "./routes/getStatistik";
import { GetUnit } from "./routes/getUnit";
import { ImportRegistry } from "./routes/importRegistry";
import { ListCorrections, ListHouseholdCorrections } from "./routes/listCorrections";
import { ListFamilyCards } from "./routes/listFamilyCards";
import { ListMutasi } from "./routes/listMutasi";
import { ListPlateDuplicates } from "./routes/listPlateDuplicates";
import { ListUnits } from "./routes/listUnits";
import { ProposeCorrection } from "./routes/proposeCorrection";
import { RecordMutasi } from "./routes/recordMutasi";
import { UpdateFamilyCard } from "./routes/updateFamilyCard";
import { UpdateFamilyMember } from "./routes/updateFamilyMember";
import { UpdateUnit } from "./routes/updateUnit";
import { UpdateVehicle } from "./routes/updateVehicle";
import { registryResidentsQuery } from "./statistik";
import { familyCards, familyMembers, units, vehicles } from "./tables";

/** The spec: the registry is opened by the secretary and admin roles. */
const registry = tenantAccess(ROLES.SECRETARIAT, "warga");
/** A resident sees only their own household, masked: enough to request a letter for a family member. */
const resident = tenantAccess(ROLES.RESIDENT, "warga");

const base = "/api/kependudukan";
const kk = `${base}/kk/:id`;

export const kependudukanModule = defineModule({
  name: "kependudukan",
  errorCodes: KEPENDUDUKAN_ERROR_CODES,
  // Served with ETag, If-None-Match and If-Match (platform/conditional, ADR 0035).
  versioned: [
    // Its GET reads the card with its members in one batch, not by `rowById`: the version is read ahead.
    versioned(`${base}/kk/:id`, familyCards, { param: "id", handsOver: false }),
    versioned(`${base}/kk/:id/members/:memberId`, familyMembers, { param: "memberId" }),
    versioned(`${base}/kk/:id/vehicles/:vehicleId`, vehicles, { param: "vehicleId" }),
    versioned(`${base}/units/:id`, units),
  ],
  personalData: kependudukanPersonalData,
  routes: [
    { method: "get", path: `${base}/units`, endpoint: ListUnits, access: registry },
    { method: "get", path: `${base}/units/:id`, endpoint: GetUnit, access: registry },
    { method: "post", path: `${base}/units`, endpoint: CreateUnit, access: registry },
    { method: "put", path: `${base}/units/:id`, endpoint: UpdateUnit, access: registry },
    { method: "delete", path: `${base}/units/:id`, endpoint: DeleteUnit, access: registry },
    { method: "get", path: `${base}/household`, endpoint: GetMyHousehold, access: resident },
    {
      method: "get",
      path: `${base}/household/corrections`,
      endpoint: ListHouseholdCorrections,
      access: resident,
    },
    { method: "post", path: `${base}/household/corrections`, endpoint: ProposeCorrection, access: resident },
    { method: "get", path: `${base}/corrections`, endpoint: ListCorrections, access: registry },
    { method: "put", path: `${base}/corrections/:id`, endpoint: DecideCorrection, access: registry },
    // `q` may be a NIK or KK number: kept out of the access log (and of caches) like a credential.
    {
      method: "get",
      path: `${base}/kk`,
      endpoint: ListFamilyCards,
      access: registry,
      secret: { query: ["q"] },
    },
    { method: "post", path: `${base}/kk`, endpoint: CreateFamilyCard, access: registry },
    { method: "get", path: kk, endpoint: GetFamilyCard, access: registry },
    { method: "put", path: kk, endpoint: UpdateFamilyCard, access: registry },
    { method: "delete", path: kk, endpoint: DeleteFamilyCard, access: registry },
    { method: "post", path: `${kk}/members`, endpoint: AddFamilyMember, access: registry },
    { method: "put", path: `${kk}/members/:memberId`, endpoint: UpdateFamilyMember, access: registry },
    { method: "delete", path: `${kk}/members/:memberId`, endpoint: DeleteFamilyMember, access: registry },
    // Vehicles flagged when plates began to be compared by key (ADR 0047), for the secretary to resolve.
    { method: "get", path: `${base}/vehicles/duplicates`, endpoint: ListPlateDuplicates, access: registry },
    { method: "post", path: `${kk}/vehicles`, endpoint: AddVehicle, access: registry },
    { method: "put", path: `${kk}/vehicles/:vehicleId`, endpoint: UpdateVehicle, access: registry },
    { method: "delete", path: `${kk}/vehicles/:vehicleId`, endpoint: DeleteVehicle, access: registry },
    { method: "get", path: `${base}/statistik`, endpoint: GetStatistik, access: registry },
    { method: "get", path: `${base}/export`, endpoint: ExportRegistry, access: registry },
    { method: "post", path: `${base}/import`, endpoint: ImportRegistry, access: registry },
    { method: "get", path: `${base}/mutasi`, endpoint: ListMutasi, access: registry },
    { method: "post", path: `${base}/mutasi`, endpoint: RecordMutasi, access: registry },
  ],
  indicators: [
    // Persons in the registry who live here (alive, on an active family card), not accounts.
    indicator({
      key: "totalResidents",
      label: "Total registered residents",
      flag: "warga",
      query: registryResidentsQuery,
    }),
  ],
});
