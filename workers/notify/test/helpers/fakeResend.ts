import type { FetchFn } from "../../src/providers/types";
import { json } from "./fakeFetch";
import { type Isolate, keyedDraw } from "./faults";

/**
 * A fake of Resend's email API at the fetch boundary (request and answer shapes from Resend's public
 * docs), answering each call with a seeded fault shape: the provider half of the fault suites
 * (faults.ts holds the queue and isolate half).
 */
export type Shape =
  | "accept"
  | "application_error"
  | "internal_server_error"
  | "rate_limit_exceeded"
  | "timeout_before"
  | "timeout_after"
  | "hopeless"
  // Issue 34: the provider answers later than our deadline (40 s) or later than the lease (130 s), having
  // acted (accepted) or not; a 409 concurrent_idempotent_requests; and a provider so slow that a second
  // consumer takes the message over while the first call is still open (a lost claim at the finish).
  | "slow_unsent"
  | "slow_accepted"
  | "slow_past_lease"
  | "concurrent_409"
  | "rival_takeover";

// The shapes issue 34 added, counted apart from the first suite's transient share.
export const SLOW_SHAPES: ReadonlySet<Shape> = new Set(["slow_unsent", "slow_accepted", "slow_past_lease"]);

export interface ProviderCall {
  step: number;
  shape: Shape;
  // What the consumer saw: an HTTP status, or null when the connection failed.
  seen: number | null;
  retryAfter?: number;
  // The provider created an email on this call (not a replay of an earlier one).
  created: boolean;
  replayed: boolean;
  // The consumer's isolate died while this call was open: nobody saw the answer.
  lost: boolean;
  // Set by the test after a crash: the isolate died before this call's attempt reached the delivery log.
  unlogged?: boolean;
  // The consumer's deadline fired while this call was open (it saw no answer).
  timedOut?: boolean;
  // Made by a second consumer that took the message over while another call for it was open.
  rival?: boolean;
  // Answered 200 to a consumer that had lost its claim by then (it logs claim_lost, not sent).
  superseded?: boolean;
}

export interface FakeResendOptions {
  seed: number;
  transientRate: number;
  indexOf: Map<string, number>;
  // Recipients the provider refuses for good, with the documented status (400 or 403 validation_error).
  refused: Map<string, 400 | 403>;
  // Recipients whose every attempt fails with a 5xx: they are what exhausts the retries.
  hopeless: Set<string>;
  isolate: () => Isolate;
  // Off only in the control run: a provider that ignores the key shows what the key protects against.
  honoursIdempotencyKey?: boolean;
  // Issue 34 shapes, drawn from the calls that would otherwise be accepted.
  slowRate?: number;
  concurrentRate?: number;
  rivalRate?: number;
  // The virtual clock, so a slow request is still "in progress" for a retry that comes before its end.
  now?: () => number;
  // Lets the consumer's deadline fire for this call (the test plays the timer): resolves once aborted.
  expire?: (signal: AbortSignal) => void;
  // A second consumer takes the message over while this call is open; resolves when it has finished.
  rival?: (messageId: string) => Promise<void>;
}

// How long a slow provider takes to answer: past our deadline, or past the claim's lease.
const SLOW_ANSWER_MS = { slow_unsent: 40_000, slow_accepted: 40_000, slow_past_lease: 130_000 } as const;

export const RESEND_URL = "https://api.resend.com/emails";

// Resend's POST /emails as its docs describe it: 200 { id }; errors { statusCode, message, name }; 429 with
// Retry-After; and the Idempotency-Key: a repeat within 24 hours answers the original response without
// sending again, a repeat with another body is 409 invalid_idempotent_request.
export class FakeResend {
  readonly calls = new Map<string, ProviderCall[]>();
  // Delivered emails per recipient: the number a resident would count in their inbox.
  readonly inbox = new Map<string, string[]>();
  readonly bodyMismatches: string[] = [];
  step = 0;
  crashAtCall: number | null = null;
  callsThisStep = 0;
  private readonly created = new Map<string, { id: string; body: string }>();

  constructor(private readonly options: FakeResendOptions) {}

  // Keys whose first request Resend is still working on, with the virtual time it will be done.
  private readonly inProgressUntil = new Map<string, number>();
  private readonly now = () => this.options.now?.() ?? 0;

  readonly fetch: FetchFn = async (input, init) => {
    const isolate = this.options.isolate();
    if (isolate.dead) {
      throw new TypeError("Network connection lost.");
    }
    const url = input instanceof Request ? input.url : String(input);
    if (url !== RESEND_URL) {
      throw new Error(`unexpected outbound fetch to ${url}`);
    }
    const key = new Headers(init?.headers).get("idempotency-key") ?? "";
    const body = typeof init?.body === "string" ? init.body : "";
    const to = (JSON.parse(body) as { to: string[] }).to[0] ?? "";
    const calls = this.calls.get(key) ?? [];
    this.calls.set(key, calls);
    const callIndex = calls.length;
    const busy = (this.inProgressUntil.get(key) ?? -1) > this.now();
    let shape = busy ? "concurrent_409" : this.shapeOf(to, callIndex);
    if (shape === "rival_takeover" && (this.crashAtCall !== null || !this.options.rival)) {
      // A takeover needs a second, living consumer; in a step whose isolate dies it stays a plain accept.
      shape = "accept";
    }
    const call: ProviderCall = {
      step: this.step,
      shape,
      seen: null,
      created: false,
      replayed: false,
      lost: false,
      ...(busy ? { rival: this.rivalRunning } : {}),
    };
    calls.push(call);
    this.callsThisStep += 1;
    const crash = this.callsThisStep === this.crashAtCall;

    if (SLOW_SHAPES.has(shape)) {
      return this.slow(shape as keyof typeof SLOW_ANSWER_MS, key, body, to, call, callIndex, init?.signal);
    }
    if (shape === "rival_takeover") {
      const first = this.answer("accept", key, body, to, call, callIndex);
      if (first.status !== 200) {
        call.seen = first.status;
        return first;
      }
      this.inProgressUntil.set(key, Number.POSITIVE_INFINITY);
      this.rivalRunning = true;
      try {
        await this.options.rival?.(key);
      } finally {
        this.rivalRunning = false;
        this.inProgressUntil.delete(key);
      }
      call.superseded = true;
      call.seen = 200;
      return first;
    }

    let response: Response | null = null;
    if (shape !== "timeout_before") {
      response = this.answer(shape, key, body, to, call, callIndex);
    }
    if (crash) {
      // The provider got the request and did its part; the isolate waiting for the answer is gone.
      call.lost = true;
      isolate.dead = true;
      throw new TypeError("Network connection lost.");
    }
    if (shape === "timeout_before" || shape === "timeout_after" || !response) {
      throw new TypeError("Network connection lost.");
    }
    call.seen = response.status;
    return response;
  };

  private rivalRunning = false;

  // The provider takes longer than the consumer's deadline: the call is aborted with the signal's reason,
  // as fetch does, after the provider has (slow_accepted, slow_past_lease) or has not (slow_unsent) acted.
  private async slow(
    shape: keyof typeof SLOW_ANSWER_MS,
    key: string,
    body: string,
    to: string,
    call: ProviderCall,
    callIndex: number,
    signal: AbortSignal | null | undefined,
  ): Promise<Response> {
    if (!signal || !this.options.expire) {
      throw new Error("a slow provider needs the consumer's deadline and a test that plays the timer");
    }
    this.inProgressUntil.set(key, this.now() + SLOW_ANSWER_MS[shape]);
    if (shape !== "slow_unsent") {
      this.answer("accept", key, body, to, call, callIndex);
    }
    const aborted = new Promise<never>((_, reject) => {
      const fail = () => reject(signal.reason);
      signal.aborted ? fail() : signal.addEventListener("abort", fail, { once: true });
    });
    this.options.expire(signal);
    try {
      return await aborted;
    } finally {
      call.timedOut = true;
    }
  }

  private shapeOf(to: string, callIndex: number): Shape {
    if (this.options.hopeless.has(to)) {
      return "hopeless";
    }
    const index = this.options.indexOf.get(to) ?? -1;
    const u = keyedDraw(this.options.seed, index, callIndex);
    if (u >= this.options.transientRate) {
      const w = keyedDraw(this.options.seed, index, callIndex, 0x0034);
      const slow = this.options.slowRate ?? 0;
      const concurrent = slow + (this.options.concurrentRate ?? 0);
      const rival = concurrent + (this.options.rivalRate ?? 0);
      if (w < slow) {
        const third = w / slow;
        return third < 1 / 3 ? "slow_unsent" : third < 2 / 3 ? "slow_accepted" : "slow_past_lease";
      }
      return w < concurrent ? "concurrent_409" : w < rival ? "rival_takeover" : "accept";
    }
    const v = u / this.options.transientRate;
    return v < 0.35
      ? "application_error"
      : v < 0.55
        ? "internal_server_error"
        : v < 0.75
          ? "rate_limit_exceeded"
          : v < 0.9
            ? "timeout_before"
            : "timeout_after";
  }

  private answer(
    shape: Shape,
    key: string,
    body: string,
    to: string,
    call: ProviderCall,
    callIndex: number,
  ): Response {
    const error = (statusCode: number, name: string, message: string, headers: Record<string, string> = {}) =>
      json({ statusCode, name, message }, statusCode, headers);
    switch (shape) {
      case "application_error":
        return error(500, "application_error", "An unexpected error occurred.");
      case "internal_server_error":
      case "hopeless":
        return error(500, "internal_server_error", "An unexpected error occurred.");
      case "concurrent_409":
        return error(
          409,
          "concurrent_idempotent_requests",
          "Same idempotency key used while original request is still in progress.",
        );
      case "rate_limit_exceeded": {
        const index = this.options.indexOf.get(to) ?? -1;
        call.retryAfter = 1 + Math.floor(keyedDraw(this.options.seed, index, callIndex, 429) * 60);
        return error(
          429,
          "rate_limit_exceeded",
          "Too many requests. You can only make 2 requests per second.",
          {
            "retry-after": String(call.retryAfter),
          },
        );
      }
      default:
        break;
    }
    const refused = this.options.refused.get(to);
    if (refused === 400) {
      return error(
        400,
        "validation_error",
        "Invalid `to` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.",
      );
    }
    if (refused === 403) {
      return error(
        403,
        "validation_error",
        "You can only send testing emails to your own email address. To send emails to other recipients, please verify a domain.",
      );
    }
    const earlier = this.options.honoursIdempotencyKey === false ? undefined : this.created.get(key);
    if (earlier) {
      if (earlier.body !== body) {
        this.bodyMismatches.push(key);
        return error(
          409,
          "invalid_idempotent_request",
          "Same idempotency key used with a different request payload.",
        );
      }
      call.replayed = true;
      return json({ id: earlier.id });
    }
    const id = `re_${key}_${this.created.size}`;
    this.created.set(key, { id, body });
    this.inbox.set(to, [...(this.inbox.get(to) ?? []), id]);
    call.created = true;
    return json({ id });
  }

  emailId(key: string): string | undefined {
    return this.created.get(key)?.id;
  }
}
