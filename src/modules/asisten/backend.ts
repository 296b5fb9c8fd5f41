import type { AssistantConfig } from "../../core/env";
import { Unavailable } from "../../core/errors";
import { log } from "../../core/http/log";

/**
 * An OpenAI-compatible chat-completions backend over plain `fetch` (OpenAI, Workers AI's OpenAI
 * endpoint, an AI Gateway, a local server): `POST {base}/chat/completions`, tools in the
 * function-calling shape, and with `stream: true` the server-sent `data:` chunks ending in `[DONE]`.
 * Failures become 503 `assistant_unavailable`; the log gets the status, never a message's content.
 */
export type WireMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface Completion {
  content: string;
  toolCalls: ToolCall[];
  tokens: number;
}

type Backend = NonNullable<AssistantConfig["backend"]>;

function unavailable(requestId: string, reason: string, status?: number): Unavailable {
  log("warn", "assistant_backend_failed", { requestId, reason, ...(status ? { status } : {}) });
  return new Unavailable("assistant_unavailable", "The assistant cannot answer right now; try again later.");
}

async function post(
  backend: Backend,
  body: Record<string, unknown>,
  signal: AbortSignal,
  requestId: string,
): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(`${backend.baseUrl}/chat/completions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(backend.apiKey ? { authorization: `Bearer ${backend.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: backend.model, ...body }),
      signal,
    });
  } catch (error) {
    throw unavailable(requestId, isTimeout(error) ? "timeout" : "network");
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw unavailable(requestId, "status", res.status);
  }
  return res;
}

export function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** The last round offers no tools, so the model has to answer in words. */
function wireBody(request: { messages: WireMessage[]; tools: unknown[] }) {
  return request.tools.length > 0
    ? { messages: request.messages, tools: request.tools, tool_choice: "auto" }
    : { messages: request.messages };
}

interface ChoiceMessage {
  content?: string | null;
  tool_calls?: ToolCall[];
}

/** One non-streamed completion. */
export async function complete(
  backend: Backend,
  request: { messages: WireMessage[]; tools: unknown[] },
  signal: AbortSignal,
  requestId: string,
): Promise<Completion> {
  const res = await post(backend, wireBody(request), signal, requestId);
  let body: { choices?: { message?: ChoiceMessage }[]; usage?: { total_tokens?: number } };
  try {
    body = await res.json();
  } catch (error) {
    throw unavailable(requestId, isTimeout(error) ? "timeout" : "malformed");
  }
  const message = body.choices?.[0]?.message;
  if (!message) {
    throw unavailable(requestId, "malformed");
  }
  return {
    content: message.content ?? "",
    toolCalls: message.tool_calls ?? [],
    tokens: body.usage?.total_tokens ?? 0,
  };
}

interface StreamChunk {
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
  }[];
  usage?: { total_tokens?: number } | null;
}

/**
 * One streamed completion: yields content pieces as they arrive and returns the whole (tool calls
 * assembled from their deltas by index, and the usage of the last chunk when the server sends it).
 */
export async function* stream(
  backend: Backend,
  request: { messages: WireMessage[]; tools: unknown[] },
  signal: AbortSignal,
  requestId: string,
): AsyncGenerator<string, Completion> {
  const res = await post(
    backend,
    { ...wireBody(request), stream: true, stream_options: { include_usage: true } },
    signal,
    requestId,
  );
  if (!res.body) {
    throw unavailable(requestId, "malformed");
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let content = "";
  let tokens = 0;
  const calls: ToolCall[] = [];
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<string>;
      try {
        chunk = await reader.read();
      } catch (error) {
        throw unavailable(requestId, isTimeout(error) ? "timeout" : "network");
      }
      if (chunk.done) {
        break;
      }
      buffer += chunk.value;
      let newline = buffer.indexOf("\n");
      while (newline >= 0) {
        const line = buffer.slice(0, newline).trim();
        buffer = buffer.slice(newline + 1);
        newline = buffer.indexOf("\n");
        if (!line.startsWith("data:")) {
          continue;
        }
        const data = line.slice(5).trim();
        if (data === "[DONE]") {
          return { content, toolCalls: calls, tokens };
        }
        let parsed: StreamChunk;
        try {
          parsed = JSON.parse(data);
        } catch {
          throw unavailable(requestId, "malformed");
        }
        tokens = parsed.usage?.total_tokens ?? tokens;
        const delta = parsed.choices?.[0]?.delta;
        if (delta?.content) {
          content += delta.content;
          yield delta.content;
        }
        for (const part of delta?.tool_calls ?? []) {
          let call = calls[part.index];
          if (!call) {
            call = { id: "", type: "function", function: { name: "", arguments: "" } };
            calls[part.index] = call;
          }
          call.id = part.id ?? call.id;
          call.function.name += part.function?.name ?? "";
          call.function.arguments += part.function?.arguments ?? "";
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
  // A stream that ends without `[DONE]` was cut off.
  throw unavailable(requestId, "truncated");
}
