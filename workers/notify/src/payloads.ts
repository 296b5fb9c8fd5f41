import type { Platform } from "./db/schema";

// What a log row's `payload` holds per channel: everything the consumer needs to deliver.

export interface EmailPayload {
  to: string;
  subject: string;
  html?: string;
  text?: string;
  replyTo?: string;
  headers?: Record<string, string>;
}

export interface PushPayload {
  token: string;
  platform?: Platform;
  title: string;
  body: string;
  data: Record<string, string>;
}

export interface WhatsAppPayload {
  to: string;
  message: string;
}

export type Payload = EmailPayload | PushPayload | WhatsAppPayload;
