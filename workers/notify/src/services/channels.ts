import type { Channel } from "../db/schema";
import { unavailable } from "../errors";
import type { ServiceContext } from "./context";

export function channelConfigured(ctx: Pick<ServiceContext, "config">, channel: Channel): boolean {
  const { email, push, webPush, whatsapp } = ctx.config;
  return { email, push: push ?? webPush, whatsapp }[channel] !== null;
}

// Refuse at the door rather than queue messages no provider can deliver.
export function requireChannel(ctx: Pick<ServiceContext, "config">, channel: Channel): void {
  if (!channelConfigured(ctx, channel)) {
    throw unavailable("channel_unconfigured", `No ${channel} provider is configured.`);
  }
}
