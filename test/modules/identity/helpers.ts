import { vi } from "vitest";
import { type QueuedMessage, queuedMessages } from "../../helpers/notify";

/** Sends that run after the answer (magic link, forgot password) land a moment later: poll for them. */
export async function waitForMessage(filter: {
  recipient: string;
  template?: string;
}): Promise<QueuedMessage> {
  return vi.waitFor(
    async () => {
      const [message] = await queuedMessages(filter);
      if (!message) {
        throw new Error(`no message for ${filter.recipient} yet`);
      }
      return message;
    },
    { timeout: 5_000, interval: 50 },
  );
}

/** The `token=` of the link in a queued message (email text or WhatsApp body). */
export function tokenIn(message: QueuedMessage): string {
  const match = /token=([A-Za-z0-9_-]+)/.exec(JSON.stringify(message.payload));
  if (!match?.[1]) {
    throw new Error(`no token link in ${JSON.stringify(message.payload)}`);
  }
  return match[1];
}

/** Lets background sends for unknown accounts settle before asserting that nothing was sent. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

export interface Session {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  user: { id: string; email: string | null; role: string; tenant: { slug: string } | null };
}
