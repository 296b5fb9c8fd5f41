import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: [
    "./src/core/db/platform-schema.ts",
    "./src/core/db/identity-schema.ts",
    "./src/platform/payments/tables.ts",
    "./src/modules/*/platform-tables.ts",
  ],
  out: "./migrations/platform",
});
