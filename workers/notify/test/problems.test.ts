import { describe, expect, it } from "vitest";
import { fieldMessage, problemText, STATUS_TITLES_EN } from "../../../src/core/i18n";
import { SHARED_ERROR_CODES } from "../src/errors";
import { indonesianTitle, PROBLEM_TYPE_BASE } from "../src/http/problem";
import { callJson } from "./helpers/worker";

/**
 * Issue 42 item 5: the notification service's problems in the API's shape and vocabulary. For the codes
 * both answer, a real notify answer is compared with what the API's own problem text gives for that code
 * and status (core/i18n, which src/core/http/problem.ts answers with): the same type URI, the same title
 * in each language, Indonesian when the caller names no language.
 */
interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  requestId?: string;
  errors?: { field: string; message: string }[];
}

const API_SHAPE = ["type", "title", "status", "detail", "code", "requestId", "errors"];

/** What the API answers for this status and code, in `lang` (src/core/http/problem.ts problemResponse). */
function apiText(lang: "id" | "en", status: number, code: string, detail: string) {
  return problemText(lang, status, code as never, { title: STATUS_TITLES_EN[status] ?? "Error", detail });
}

const cases: {
  code: string;
  status: number;
  send: (headers: Record<string, string>) => ReturnType<typeof callJson<Problem>>;
}[] = [
  {
    code: "invalid_service_key",
    status: 401,
    send: (headers) => callJson<Problem>("GET", "/v1/templates", { key: "wrong", headers }),
  },
  {
    code: "malformed_json",
    status: 400,
    send: (headers) => callJson<Problem>("POST", "/v1/templates/WELCOME/preview", { body: "{not", headers }),
  },
  {
    code: "invalid_input",
    status: 400,
    send: (headers) =>
      callJson<Problem>("POST", "/v1/whatsapp/send", { body: { to: "not-a-phone", message: "" }, headers }),
  },
  {
    code: "unsupported_media_type",
    status: 415,
    send: (headers) =>
      callJson<Problem>("POST", "/v1/whatsapp/send", {
        body: "to=1",
        headers: { ...headers, "content-type": "application/x-www-form-urlencoded" },
      }),
  },
  {
    code: "route_not_found",
    status: 404,
    send: (headers) => callJson<Problem>("GET", "/v1/nothing-here", { headers }),
  },
];

describe("notify problems speak the API's vocabulary", () => {
  it.each(cases)(
    "$code: the API's code, type and titles, in the caller's language",
    async ({ code, status, send }) => {
      for (const [header, lang] of [
        [undefined, "id"],
        ["id-ID,id;q=0.9", "id"],
        ["en", "en"],
      ] as const) {
        const res = await send(header ? { "accept-language": header } : {});
        expect(res.status).toBe(status);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(res.headers.get("content-language")).toBe(lang);
        expect(Object.keys(res.body).filter((k) => !API_SHAPE.includes(k))).toEqual([]);
        const api = apiText(lang, status, code, res.body.detail);
        expect(res.body).toMatchObject({
          type: `${PROBLEM_TYPE_BASE}${code}`,
          status,
          code,
          title: api.title,
        });
        if (lang === "id") {
          expect(res.body.detail).toBe(api.detail);
        }
      }
    },
  );

  it("an idempotency key reused with another request is the API's 422 idempotency_key_reused", async () => {
    const headers = { "idempotency-key": "problems-1" };
    await callJson("POST", "/v1/whatsapp/send", { body: { to: "081277700011", message: "a" }, headers });
    const res = await callJson<Problem>("POST", "/v1/whatsapp/send", {
      body: { to: "081277700011", message: "b" },
      headers,
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: "idempotency_key_reused",
      title: apiText("id", 422, "idempotency_key_reused", "").title,
    });
  });

  it("field messages in Indonesian by default, the code's English under Accept-Language: en", async () => {
    const body = { to: "not-a-phone", message: "" };
    const id = await callJson<Problem>("POST", "/v1/whatsapp/send", { body });
    const en = await callJson<Problem>("POST", "/v1/whatsapp/send", {
      body,
      headers: { "accept-language": "en" },
    });
    expect(id.body.errors?.length).toBeGreaterThan(0);
    expect(id.body.errors?.map((e) => e.message)).toEqual(
      en.body.errors?.map((e) => fieldMessage("id", e.message)),
    );
    expect(id.body.errors?.map((e) => e.message)).not.toEqual(en.body.errors?.map((e) => e.message));
  });

  it("every code shared with the API has the API's Indonesian title; each of its own has one", () => {
    for (const code of SHARED_ERROR_CODES) {
      expect(indonesianTitle(code), code).toBe(apiText("id", 400, code, "").title);
    }
  });
});
