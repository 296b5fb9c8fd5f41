import { buildApp, jobs } from "./app";
import { scheduledHandler } from "./core/jobs";

export type { AppType } from "./app";
export { PollTally } from "./durable/PollTally";
export { RateLimiter } from "./durable/RateLimiter";
export { StaffDigest } from "./durable/StaffDigest";

const app = buildApp();

export default {
  fetch: app.fetch,
  scheduled: scheduledHandler(jobs),
} satisfies ExportedHandler<Env>;
