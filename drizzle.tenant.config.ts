import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: ["./src/modules/*/tables.ts"],
  out: "./migrations/tenant",
});
