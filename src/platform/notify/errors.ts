// Errors the notification client throws. Callers keep their own record of the notification as pending and
// may retry later; nothing here is lost silently.

export interface NotifyProblem {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: { field: string; message: string }[];
}

// The service cannot take the message right now: no binding, network failure, 5xx, or 503 from the
// service (including `channel_unconfigured`). Safe to retry later with the same idempotency key.
export class NotifyUnavailable extends Error {
  override name = "NotifyUnavailable";
  readonly code = "notification_unavailable";
  constructor(
    message: string,
    readonly status?: number,
    readonly problem?: NotifyProblem,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// The service refused the request itself (400, 401, 404, 409, ...): retrying the same request will not help.
export class NotifyRequestError extends Error {
  override name = "NotifyRequestError";
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly problem?: NotifyProblem,
  ) {
    super(message);
  }
}
