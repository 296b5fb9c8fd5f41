import { createDb, type Db } from "../db/client";
import type { AppEnv, Config } from "../env";
import type { QueueBody } from "../queue/body";

// Explicit context for every service verb: no ambient state, and tests can hand in their own clock.
export interface ServiceContext {
  db: Db;
  config: Config;
  queue: Queue<QueueBody>;
  now: () => Date;
}

export function serviceContext(env: AppEnv, config: Config): ServiceContext {
  return { db: createDb(env.NOTIFY_DB), config, queue: env.NOTIFY_QUEUE, now: () => new Date() };
}
