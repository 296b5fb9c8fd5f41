import { fuzzPart } from "./schema-fuzz";

// The fuzz is split over four files so the test workers share it evenly (files share one runtime).
fuzzPart(1, 4);
