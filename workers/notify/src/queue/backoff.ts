export interface BackoffPolicy {
  baseSeconds: number;
  maxSeconds: number;
}

// Exponential backoff with "equal jitter": half the step is fixed, half random. The fixed half keeps the
// delay growing; the random half spreads out messages that failed together (a provider outage) so they do
// not all come back in the same second. A provider's Retry-After wins when it asks for longer.
export function backoffSeconds(
  attempt: number,
  policy: BackoffPolicy,
  random: () => number = Math.random,
  retryAfter?: number,
): number {
  const step = Math.min(policy.maxSeconds, policy.baseSeconds * 2 ** Math.max(0, attempt - 1));
  const jittered = step / 2 + random() * (step / 2);
  return Math.ceil(Math.min(43_200, Math.max(jittered, retryAfter ?? 0)));
}
