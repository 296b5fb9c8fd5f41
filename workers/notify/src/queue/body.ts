// The queue carries only the id: the log row is the source of truth, so a redelivered or stale queue
// message can never send content that differs from what the log shows.
export interface QueueBody {
  messageId: string;
}
