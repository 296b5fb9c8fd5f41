import { createApp } from "./app";
import { createDb } from "./db/client";
import { type AppEnv, loadConfig } from "./env";
import { installLogRedaction, rememberSecrets } from "./http/redact";
import { buildProviders } from "./providers";
import type { QueueBody } from "./queue/body";
import { consumeBatch } from "./queue/consumer";
import { consumeDeadLetters, DEAD_LETTER_QUEUE } from "./queue/deadLetter";
import { raiseAlert } from "./services/alerts";

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
    const config = loadConfig(env);
    const providers = buildProviders(config);
    const queue = env.NOTIFY_QUEUE;
    if (batch.queue === DEAD_LETTER_QUEUE) {
      await consumeDeadLetters(batch, db, now, (row) =>
        raiseAlert(
          { db, config, queue, now },
          {
            message: row,
            provider: providers[row.channel]?.name ?? "none",
            status: "dead",
            error: row.lastError ?? "retries exhausted (dead-letter queue)",
          },
        ).then(() => undefined),
      );
      return;
    }
    await consumeBatch(batch, { db, config, providers, now, queue });
  },
} satisfies ExportedHandler<AppEnv, QueueBody>;
