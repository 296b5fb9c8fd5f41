import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/core/db/tenant-schema.ts", "./src/modules/*/tables.ts"],
  out: "./migrations/tenant",
});
