import { fuzzPart } from "./schema-fuzz";

fuzzPart(1, 3);
