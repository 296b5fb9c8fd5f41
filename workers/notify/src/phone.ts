// One rule for both Workers: the main API's local fallback and this service deliver to the same digits.
export { toMsisdn as normalizeMsisdn } from "../../../src/core/phone";
