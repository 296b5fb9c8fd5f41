import { useEffect, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type Answer, api } from "../../api/client";
import { dateTime } from "../../format";
import { useLanguage } from "../../i18n";
import type { Poll } from "../../screens/musyawarah/types";
import { useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { BarChart, Confirm, ConflictNotice, currentEtag, isConflict } from "../ui";
import { px } from "./text";

/** How often an open poll's results are read again while its screen is open. */
const LIVE_SECONDS = 5;

/** `/pengurus/musyawarah/:id`: the poll, its rules, its results (live while open); publish, close, delete. */
export function PollDesk({ params }: { params: { id: string } }) {
  useLanguage();
  const path = `/api/musyawarah/${params.id}`;
  const poll = useResource(() => api.read<Poll>(path), [params.id]);
  const [done, setDone] = useState<string | null>(null);
  return (
    <section aria-labelledby="poll-title" class="polls">
      <p>
        <a href="/pengurus/musyawarah">{px("back")}</a>
      </p>
      <Show resource={poll} lines={8}>
        {(answer) => (
          <Desk
            answer={answer}
            path={path}
            done={done}
            after={(message) => {
              setDone(message);
              if (poll.state === "ready") {
                poll.reload();
              }
            }}
          />
        )}
      </Show>
    </section>
  );
}

type Move = "publish" | "close" | "delete";

/** Whether two reads of a poll differ only in what ballots change (its tally, turnout, update time). */
function sameButTally(a: Poll, b: Poll): boolean {
  const kept = (p: Poll) =>
    JSON.stringify([
      p.title,
      p.description,
      p.options,
      p.startsAt,
      p.endsAt,
      p.status,
      p.quorum,
      p.anonymous,
      p.multipleChoice,
      p.maxChoices,
      p.voterScope,
      p.resultsVisibility,
      p.closedAt,
    ]);
  return kept(a) === kept(b);
}

function Desk(props: {
  answer: Answer<Poll>;
  path: string;
  done: string | null;
  after: (m: string | null) => void;
}) {
  const { route } = useLocation();
  // The poll as last read, with its version: the live reads keep both, so a move names what was shown.
  const [live, setLive] = useState<Answer<Poll>>(props.answer);
  const [asking, setAsking] = useState<Move | null>(null);
  const [conflict, setConflict] = useState<Move | null>(null);
  useEffect(() => setLive(props.answer), [props.answer]);
  // Live results: read again every few seconds while the poll is open and the screen is shown.
  useEffect(() => {
    if (props.answer.data.status !== "aktif") {
      return;
    }
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") {
        api.read<Poll>(props.path).then(setLive, () => undefined);
      }
    }, LIVE_SECONDS * 1000);
    return () => clearInterval(timer);
  }, [props.answer, props.path]);
  const p = live.data;
  const perform = async (move: Move, etag: string | null) => {
    if (move === "delete") {
      await api.del(props.path, etag);
      route("/pengurus/musyawarah");
      return;
    }
    await api.put(props.path, { status: move === "publish" ? "aktif" : "ditutup" }, etag);
    props.after(px(move === "publish" ? "published" : "closed"));
  };
  const act = useSubmit(async () => {
    if (!asking) {
      return;
    }
    const move = asking;
    try {
      await perform(move, live.etag);
      setAsking(null);
    } catch (error) {
      // Each ballot counted moves an open poll's version (its tally is kept on its row), so a close can
      // answer 412 (having closed nothing: the API checks If-Match before the tally closes). Read it
      // again: when it now stands where the move was to take it (another officer made it), the move is
      // done; when nothing but the tally changed since it was shown, make the move on the version now;
      // anything else (another officer's edit) is a conflict.
      const now = isConflict(error) ? await api.read<Poll>(props.path).catch(() => null) : null;
      if (now && move !== "delete") {
        if (now.data.status === (move === "publish" ? "aktif" : "ditutup")) {
          setAsking(null);
          props.after(px(move === "publish" ? "published" : "closed"));
          return;
        }
        if (sameButTally(now.data, live.data)) {
          await perform(move, now.etag);
          setAsking(null);
          return;
        }
      }
      if (isConflict(error)) {
        setAsking(null);
        setConflict(move);
        return;
      }
      throw error;
    }
  });
  const mine = useSubmit(async () => {
    if (conflict) {
      await perform(conflict, await currentEtag(props.path));
      setConflict(null);
    }
  });
  const titles = { publish: "publishTitle", close: "closeTitle", delete: "deleteTitle" } as const;
  const labels = { publish: "publish", close: "close", delete: "delete" } as const;
  const total = p.results?.reduce((n, r) => n + r.count, 0) ?? 0;
  return (
    <>
      <h1 id="poll-title">{p.title}</h1>
      <p>
        <span class={`badge polls-${p.status}`}>{px(p.status)}</span>{" "}
        {px("schedule", { from: dateTime(p.startsAt), to: dateTime(p.endsAt) })}
      </p>
      {props.done && (
        <p class="card" role="status">
          {props.done}
        </p>
      )}
      {conflict && (
        <ConflictNotice
          busy={mine.busy}
          onTheirs={() => {
            setConflict(null);
            props.after(null);
          }}
          onMine={() => mine.submit()}
        />
      )}
      {p.description && <p>{p.description}</p>}
      <div class="actions">
        {p.status === "draft" && (
          <>
            <a class="button" href={`/pengurus/musyawarah/${p.id}/ubah`}>
              {px("edit")}
            </a>
            <button type="button" class="primary" onClick={() => setAsking("publish")}>
              {px("publish")}
            </button>
            <button type="button" class="danger" onClick={() => setAsking("delete")}>
              {px("delete")}
            </button>
          </>
        )}
        {p.status === "aktif" && (
          <button type="button" class="danger" onClick={() => setAsking("close")}>
            {px("close")}
          </button>
        )}
      </div>
      <Confirm
        open={asking !== null}
        title={asking ? px(titles[asking]) : ""}
        confirmLabel={asking ? px(labels[asking]) : undefined}
        danger={asking !== "publish"}
        busy={act.busy}
        error={act.error ?? mine.error}
        onCancel={() => setAsking(null)}
        onConfirm={() => act.submit()}
      />
      <div class="polls-grid">
        <section class="card" aria-labelledby="poll-results">
          <h2 id="poll-results">{px("results")}</h2>
          <p role="status" aria-live="polite">
            {p.turnout.eligibleVoters !== null
              ? px("turnoutOf", { n: p.turnout.ballots, m: p.turnout.eligibleVoters })
              : px("turnout", { n: p.turnout.ballots })}
            {p.quorum && p.quorumReached !== null
              ? ` · ${p.quorumReached ? px("quorumReached") : px("quorumNotReached")}`
              : ""}
          </p>
          {p.results && p.results.length > 0 ? (
            <BarChart
              title={px("results")}
              bars={p.results.map((r) => ({
                label: r.label,
                value: r.count,
                text: `${r.count} ${px("votes")}${total ? ` (${Math.round((r.count / total) * 100)}%)` : ""}`,
              }))}
            />
          ) : (
            <p class="empty">{px("noResults")}</p>
          )}
          {p.status === "aktif" && <p class="muted">{px("live", { s: LIVE_SECONDS })}</p>}
        </section>
        <section class="card" aria-labelledby="poll-rules">
          <h2 id="poll-rules">{px("settings")}</h2>
          <dl class="facts">
            <dt>{px("options")}</dt>
            <dd>{p.options.map((o) => o.label).join(" · ")}</dd>
            <dt>{px("voterScope")}</dt>
            <dd>{p.voterScope === "kk" ? px("scopeKk") : px("scopeWarga")}</dd>
            <dt>{px("quorum")}</dt>
            <dd>
              {p.quorum
                ? `${p.quorum.value}${p.quorum.kind === "percent" ? "%" : ` ${px("votes")}`}`
                : px("quorumNone")}
            </dd>
            <dt>{px("anonymous")}</dt>
            <dd>{p.anonymous ? px("secret") : px("open")}</dd>
            <dt>{px("multipleChoice")}</dt>
            <dd>{p.multipleChoice ? px("multiple", { n: p.maxChoices }) : px("single")}</dd>
            <dt>{px("resultsVisibility")}</dt>
            <dd>{px(p.resultsVisibility)}</dd>
          </dl>
        </section>
      </div>
    </>
  );
}
