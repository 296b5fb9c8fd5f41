export { createNotifyClient, NotifyClient } from "./client";
export { type NotifyProblem, NotifyRequestError, NotifyUnavailable } from "./errors";
export type {
  BlastWhatsAppInput,
  ChannelDeliverySummary,
  DeliveryFailure,
  DeliveryStats,
  DeliverySummary,
  Device,
  FanoutChannel,
  FanoutInput,
  NotificationPreferences,
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
