import { buildApp } from "./app";

export type { AppType } from "./app";
export { PollTally } from "./durable/PollTally";
export { RateLimiter } from "./durable/RateLimiter";

const app = buildApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
