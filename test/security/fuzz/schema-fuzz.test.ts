import { fuzzPart } from "./schema-fuzz";

// Two files, so the two test workers share the fuzz (each file costs a fresh runtime, but the fuzz
// alone is over two minutes of requests now that there are 200 operations).
fuzzPart(0, 2);
