/**
 * The kependudukan module's public face (docs/adr/0052-a-modules-public-face.md): the verbs its routes, jobs
 * and other modules use. The logic lives in files named for what they do.
 */
export { registrySheets } from "./exchange-export";
export { householdAt, householdMembers, maskNik } from "./families";
export { familyCardOfPerson, isPersonAt, personAndHouse, personAndHouseQueries, personById } from "./persons";
export { houseAndUnitRequest, latestUnitRequest, requestUnit } from "./unit-requests";
export {
  billingTargetsQuery,
  createUnit,
  deleteUnit,
  familyCardsByIds,
  findOrCreateUnit,
  getUnit,
  housesAt,
  listUnits,
  unitByAddress,
  unitsByIds,
  unitsGeoJson,
  updateUnit,
} from "./units";
