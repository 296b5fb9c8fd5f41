import { createApp } from "./app";
import { createDb } from "./db/client";
import { type AppEnv, loadConfig } from "./env";
import { installLogRedaction, rememberSecrets } from "./http/redact";
import { buildProviders } from "./providers";
import type { QueueBody } from "./queue/body";
import { consumeBatch } from "./queue/consumer";
import { consumeDeadLetters, DEAD_LETTER_QUEUE } from "./queue/deadLetter";

// workerd rejects any named export of the entry module that is not a handler or a class, so constants
// live elsewhere.
const app = createApp();
installLogRedaction();

function secretsOf(env: AppEnv): (string | undefined)[] {
  return [env.INTERNAL_API_KEY, env.EMAIL_HTTP_API_KEY, env.WHATSAPP_CLOUD_TOKEN, env.WHATSAPP_GATEWAY_TOKEN];
}

export default {
  fetch: (request, env, ctx) => {
    rememberSecrets(secretsOf(env));
    return app.fetch(request, env, ctx);
  },

  async queue(batch, env, _ctx) {
    rememberSecrets(secretsOf(env));
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
