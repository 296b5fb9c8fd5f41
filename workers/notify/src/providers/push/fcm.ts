import type { FcmConfig } from "../../env";
import { guardedFetch, isTransientStatus, parseJson, readSnippet, retryAfterSeconds } from "../http";
import type { DeliveryFailure, FetchFn, PushProvider } from "../types";
import { forgetAccessToken, getAccessToken, TokenError } from "./googleToken";

interface FcmErrorBody {
  error?: {
    code?: number;
    status?: string;
    message?: string;
    details?: { "@type"?: string; errorCode?: string }[];
  };
}

function fcmErrorCode(body: FcmErrorBody | undefined): string | undefined {
  const detail = body?.error?.details?.find((d) => d["@type"]?.endsWith("google.firebase.fcm.v1.FcmError"));
  return detail?.errorCode ?? body?.error?.status;
}

// FCM HTTP v1 ErrorCode reference (firebase.google.com/docs/reference/fcm/rest/v1/ErrorCode):
// - UNREGISTERED (404): the app instance is gone; the token will never work again, so it is removed.
// - INVALID_ARGUMENT (400), SENDER_ID_MISMATCH (403): the token or message is wrong for good.
// - QUOTA_EXCEEDED (429): back off, at least a minute for the first retry (the docs' minimum).
// - UNAVAILABLE (503): overloaded; honour Retry-After. INTERNAL (500): retry with backoff.
// - THIRD_PARTY_AUTH_ERROR (401): our APNs or web-push credentials; an operator can fix them.
const PERMANENT = new Set(["INVALID_ARGUMENT", "SENDER_ID_MISMATCH", "UNREGISTERED"]);
const RETRYABLE = new Set(["QUOTA_EXCEEDED", "UNAVAILABLE", "INTERNAL", "THIRD_PARTY_AUTH_ERROR"]);
export const FCM_QUOTA_MIN_SECONDS = 60;

export function classifyFcm(status: number, text: string, retryAfter?: number): DeliveryFailure {
  const code = fcmErrorCode(parseJson(text) as FcmErrorBody | undefined);
  if (code === "UNREGISTERED") {
    return {
      ok: false,
      retryable: false,
      deactivateToken: true,
      status,
      response: text,
      error: "FCM: token unregistered",
    };
  }
  const retryable =
    code !== undefined && PERMANENT.has(code)
      ? false
      : (code !== undefined && RETRYABLE.has(code)) || isTransientStatus(status);
  return {
    ok: false,
    retryable,
    status,
    response: text,
    retryAfterSeconds:
      code === "QUOTA_EXCEEDED" ? Math.max(FCM_QUOTA_MIN_SECONDS, retryAfter ?? 0) : retryAfter,
    error: `FCM ${status}${code ? ` ${code}` : ""}`,
  };
}

// FCM HTTP v1: POST /v1/projects/{project}/messages:send with { message: { token, notification, data,
// android, apns } }; answers 200 { name }. One request per token: v1 has no multicast, and no idempotency
// key, so a timed-out send is not repeated automatically (ADR 0031).
export function createFcmProvider(
  config: FcmConfig,
  fetchFn: FetchFn,
  now: () => number = Date.now,
): PushProvider {
  const url = `https://fcm.googleapis.com/v1/projects/${encodeURIComponent(config.projectId)}/messages:send`;
  return {
    name: "fcm",
    idempotent: false,
    async send(push) {
      let accessToken: string;
      try {
        accessToken = await getAccessToken(config, fetchFn, now, push.signal);
      } catch (err) {
        // No push left us: a failed or timed-out token exchange is an ordinary transient failure.
        const status = err instanceof TokenError ? err.status : undefined;
        return {
          ok: false,
          retryable: true,
          status,
          error: err instanceof Error ? err.message : String(err),
        };
      }
      const message = {
        token: push.token,
        notification: { title: push.title, body: push.body },
        // The app routes on data.screen/data.id when the notification is tapped.
        data: push.data,
        android: { priority: "HIGH" },
        apns: { headers: { "apns-priority": "10" }, payload: { aps: { sound: "default" } } },
      };
      const result = await guardedFetch(fetchFn, url, {
        method: "POST",
        headers: { authorization: `Bearer ${accessToken}`, "content-type": "application/json" },
        body: JSON.stringify({ message }),
        signal: push.signal,
      });
      if ("failure" in result) {
        return result.failure;
      }
      const { response } = result;
      const text = await readSnippet(response);
      if (response.ok) {
        const name = (parseJson(text) as { name?: unknown } | undefined)?.name;
        return {
          ok: true,
          status: response.status,
          response: text,
          providerMessageId: typeof name === "string" ? name : undefined,
        };
      }
      if (response.status === 401) {
        // Our access token was revoked or expired early: fetch a new one on the retry.
        forgetAccessToken(config);
      }
      return classifyFcm(response.status, text, retryAfterSeconds(response));
    },
  };
}
