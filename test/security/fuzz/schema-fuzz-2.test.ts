import { fuzzPart } from "./schema-fuzz";

// The second half of the operations (see schema-fuzz.test.ts).
fuzzPart(1, 2);
