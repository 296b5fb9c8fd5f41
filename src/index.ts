import { buildApp } from "./app";

export type { AppType } from "./app";

const app = buildApp();

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
