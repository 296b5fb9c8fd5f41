import { defineConfig } from "drizzle-kit";

// Run from the repository root: npx drizzle-kit generate --config workers/notify/drizzle.config.ts
export default defineConfig({
  dialect: "sqlite",
  schema: "./workers/notify/src/db/schema.ts",
  out: "./workers/notify/migrations",
});
