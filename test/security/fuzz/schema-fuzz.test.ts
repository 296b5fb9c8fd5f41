import { fuzzPart } from "./schema-fuzz";

// The fuzz is split over six files so the test workers share it evenly (files share one runtime).
fuzzPart(0, 6);
