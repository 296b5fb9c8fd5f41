import { fuzzPart } from "./schema-fuzz";

// One file: every test file costs a fresh runtime, more than spreading the fuzz over workers saves.
fuzzPart(0, 1);
