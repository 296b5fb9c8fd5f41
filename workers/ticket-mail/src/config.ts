import { z } from "zod";

const Config = z.object({
  INTERNAL_API_KEY: z.string().min(16, "INTERNAL_API_KEY must be set (at least 16 characters)"),
  ENVIRONMENT: z.string().min(1),
});

export type Config = z.infer<typeof Config>;

/** Fails loudly: a missing key is an operator error, and throwing keeps the mail queued for retry. */
export function readConfig(env: Env): Config {
  const parsed = Config.safeParse(env);
  if (!parsed.success) {
    throw new Error(`ticket-mail misconfigured: ${parsed.error.issues.map((i) => i.message).join("; ")}`);
  }
  return parsed.data;
}
