export { createNotifyClient, NotifyClient } from "./client";
export { type NotifyProblem, NotifyRequestError, NotifyUnavailable } from "./errors";
export type {
  BlastWhatsAppInput,
  DeliveryFailure,
  DeliveryStats,
  Device,
  NotifyBinding,
  NotifyClientOptions,
  PushData,
  RegisterDeviceInput,
  SendEmailInput,
  SendPushInput,
  SendRawEmailInput,
  SendResult,
  SendWhatsAppInput,
  WhatsAppFallback,
} from "./types";
