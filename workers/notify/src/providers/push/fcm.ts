import type { FcmConfig } from "../../env";
import { guardedFetch, isTransientStatus, parseJson, readSnippet, retryAfterSeconds } from "../http";
import type { FetchFn, PushProvider } from "../types";
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

// FCM HTTP v1: POST /v1/projects/{project}/messages:send with { message: { token, notification, data,
// android, apns } }; answers 200 { name }. One request per token: v1 has no multicast.
export function createFcmProvider(
  config: FcmConfig,
  fetchFn: FetchFn,
  now: () => number = Date.now,
): PushProvider {
  const url = `https://fcm.googleapis.com/v1/projects/${encodeURIComponent(config.projectId)}/messages:send`;
  return {
    name: "fcm",
    async send(push) {
      let accessToken: string;
      try {
        accessToken = await getAccessToken(config, fetchFn, now);
      } catch (err) {
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
      const code = fcmErrorCode(parseJson(text) as FcmErrorBody | undefined);
      if (response.status === 401) {
        // Our access token was revoked or expired early: fetch a new one on the retry.
        forgetAccessToken(config);
      }
      if (code === "UNREGISTERED") {
        return {
          ok: false,
          retryable: false,
          deactivateToken: true,
          status: response.status,
          response: text,
          error: "FCM: token unregistered",
        };
      }
      const retryable =
        code === "QUOTA_EXCEEDED" ||
        code === "UNAVAILABLE" ||
        code === "INTERNAL" ||
        isTransientStatus(response.status);
      return {
        ok: false,
        retryable: retryable && code !== "INVALID_ARGUMENT" && code !== "SENDER_ID_MISMATCH",
        status: response.status,
        response: text,
        retryAfterSeconds: retryAfterSeconds(response),
        error: `FCM ${response.status}${code ? ` ${code}` : ""}`,
      };
    },
  };
}
