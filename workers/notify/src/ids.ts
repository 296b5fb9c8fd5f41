import { monotonicFactory } from "ulidx";

// Monotonic so ids created in one millisecond (a 1,000-recipient blast) still sort in creation order,
// which the delivery log's cursor relies on.
export const newId = monotonicFactory();
