import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../../api/client";
import { type MessageKey, t, useLanguage } from "../../i18n";
import { FormError, useSubmit } from "../../ui/forms";
import { Loading, useResource } from "../../ui/states";

interface Turn {
  role: "user" | "assistant";
  content: string;
  sources?: Source[];
}
interface Source {
  kind: "tagihan" | "surat" | "jenis_surat" | "pengaduan" | "tamu" | "musyawarah" | "info_rt";
  id: string;
}
interface Reply {
  reply: string;
  sources: Source[];
}
interface Status {
  available: boolean;
  mode: "llm" | "builtin";
}

/**
 * The API takes at most 20 turns and 8,000 characters in all: the newest turns that fit are sent, the
 * question last, so the assistant can follow up on the previous turns ("yang bulan oktober?").
 */
const MAX_TURNS = 20;
const MAX_CHARS = 8_000;

function recentTurns(turns: readonly Turn[], question: string) {
  const sent: { role: Turn["role"]; content: string }[] = [{ role: "user", content: question }];
  let chars = question.length;
  for (const { role, content } of [...turns].reverse()) {
    if (sent.length >= MAX_TURNS || chars + content.length > MAX_CHARS) {
      break;
    }
    sent.unshift({ role, content });
    chars += content.length;
  }
  return sent;
}

/** The app's own paths in a reply ("Bayar lewat menu Iuran: /iuran") become links to those screens. */
const APP_PATH = /(\/(?:iuran|surat|aspirasi|tamu|musyawarah|pengumuman)\b)/;

function withLinks(text: string) {
  return text.split(APP_PATH).map((piece, i) =>
    i % 2 === 1 ? (
      <a key={i} href={piece}>
        {piece}
      </a>
    ) : (
      piece
    ),
  );
}

/** Where each kind of source the assistant cites is seen in the app. */
const SOURCE_SCREENS: Record<Source["kind"], { path: string; key: MessageKey }> = {
  tagihan: { path: "/iuran", key: "nav.iuran" },
  surat: { path: "/surat", key: "nav.surat" },
  jenis_surat: { path: "/surat", key: "nav.surat" },
  pengaduan: { path: "/aspirasi", key: "nav.aspirasi" },
  tamu: { path: "/tamu", key: "nav.tamu" },
  musyawarah: { path: "/musyawarah", key: "nav.musyawarah" },
  info_rt: { path: "/pengumuman", key: "nav.pengumuman" },
};

/** The conversation outlives a visit to another screen (in memory only: a reload starts afresh). */
let kept: Turn[] = [];

/** `/asisten`: a multi-turn chat with the community's assistant, which reads only the person's own data. */
export function Asisten() {
  useLanguage();
  const status = useResource(() => api.get<Status>("/api/ai/status"));
  const [turns, setTurns] = useState<Turn[]>(kept);
  const [text, setText] = useState("");
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    kept = turns;
    end.current?.scrollIntoView?.({ block: "nearest" });
  }, [turns]);
  const send = useSubmit((key) => {
    const messages = recentTurns(turns, text.trim());
    return api.post<Reply>("/api/ai/chat", { messages }, { idempotencyKey: key });
  });
  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const question = text.trim();
    if (!question) {
      return;
    }
    const answer = await send.submit();
    if (answer) {
      setTurns((all) => [
        ...all,
        { role: "user", content: question },
        { role: "assistant", content: answer.reply, sources: answer.sources },
      ]);
      setText("");
    }
  };
  const unavailable = status.state === "ready" && !status.data.available;
  return (
    <section class="asisten" aria-labelledby="asisten-title">
      <h1 id="asisten-title">{t("asisten.title")}</h1>
      <p class="muted">{t("asisten.intro")}</p>
      {status.state === "loading" && <Loading lines={1} />}
      {unavailable && <p class="alert">{t("asisten.unavailable")}</p>}
      <ol class="asisten-log" aria-label={t("asisten.conversation")} aria-live="polite">
        {turns.length === 0 && <li class="asisten-hint muted">{t("asisten.hint")}</li>}
        {turns.map((turn, i) => (
          <li key={i} class={`asisten-turn asisten-${turn.role}`}>
            <span class="sr-only">{t(turn.role === "user" ? "asisten.you" : "asisten.bot")}: </span>
            <p>{turn.role === "assistant" ? withLinks(turn.content) : turn.content}</p>
            {turn.sources && turn.sources.length > 0 && (
              <p class="asisten-sources">
                {t("asisten.see")}{" "}
                {[...new Set(turn.sources.map((s) => s.kind))].map((kind) => (
                  <a key={kind} href={SOURCE_SCREENS[kind].path}>
                    {t(SOURCE_SCREENS[kind].key)}
                  </a>
                ))}
              </p>
            )}
          </li>
        ))}
        {send.busy && (
          <li class="asisten-turn asisten-assistant asisten-typing" role="status">
            {t("asisten.thinking")}
          </li>
        )}
      </ol>
      <div ref={end} />
      <form class="asisten-form" onSubmit={onSubmit}>
        <label for="asisten-input">{t("asisten.label")}</label>
        <textarea
          id="asisten-input"
          name="message"
          rows={2}
          maxLength={2000}
          required
          value={text}
          onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            // Enter sends, Shift+Enter starts a new line (as in the chat apps people know).
            if (e.key === "Enter" && !e.shiftKey) {
              void onSubmit(e);
            }
          }}
        />
        <FormError error={send.error} />
        <div class="asisten-actions">
          <button type="submit" class="primary" disabled={send.busy || unavailable}>
            {send.busy ? t("common.sending") : t("asisten.send")}
          </button>
          {turns.length > 0 && (
            <button type="button" onClick={() => setTurns([])} disabled={send.busy}>
              {t("asisten.clear")}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
