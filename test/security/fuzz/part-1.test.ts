import { fuzzPart } from "./schema-fuzz";

fuzzPart(0, 3);
