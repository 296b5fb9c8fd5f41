import { createApp } from "./app";
import { createDb } from "./db/client";
import { type AppEnv, loadConfig } from "./env";
import { buildProviders } from "./providers";
import type { QueueBody } from "./queue/body";
import { consumeBatch } from "./queue/consumer";
import { consumeDeadLetters, DEAD_LETTER_QUEUE } from "./queue/deadLetter";

// workerd rejects any named export of the entry module that is not a handler or a class, so constants
// live elsewhere.
const app = createApp();

export default {
  fetch: (request, env, ctx) => app.fetch(request, env, ctx),

  async queue(batch, env, _ctx) {
    const db = createDb(env.NOTIFY_DB);
    const now = () => new Date();
    if (batch.queue === DEAD_LETTER_QUEUE) {
      await consumeDeadLetters(batch, db, now);
      return;
    }
    const config = loadConfig(env);
    await consumeBatch(batch, { db, config, providers: buildProviders(config), now });
  },
} satisfies ExportedHandler<AppEnv, QueueBody>;
