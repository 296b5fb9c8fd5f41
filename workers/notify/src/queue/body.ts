// The queue carries only the id: the log row is the source of truth, so a redelivered or stale queue
// message can never send content that differs from what the log shows.
export interface QueueBody {
  messageId: string;
  /** The request that queued it (the API's X-Request-Id), so its delivery logs and provider calls carry it. */
  requestId?: string;
}
