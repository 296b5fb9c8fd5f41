import { buildApp } from "./app";

const app = buildApp();

/** The app's type, for typed clients (`hc<AppType>` from hono/client). */
export type AppType = typeof app;

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
