import { fuzzPart } from "./schema-fuzz";

fuzzPart(2, 3);
