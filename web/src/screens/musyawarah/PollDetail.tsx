import { useId, useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { ApiError, api } from "../../api/client";
import { dateTime } from "../../format";
import { t, useLanguage } from "../../i18n";
import { useSession } from "../../session";
import { FormError, Submit, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { type Poll, phaseOf } from "./types";

/** `/musyawarah/:id`: one poll, its ballot while voting is open, and its results as the poll allows. */
export function PollDetail() {
  useLanguage();
  const { params } = useRoute();
  const id = params.id ?? "";
  const loaded = useResource(() => api.get<Poll>(`/api/musyawarah/${encodeURIComponent(id)}`), [id]);
  // The vote answers the poll with the new count: shown as it came, without reading it again.
  const [after, setAfter] = useState<Poll | null>(null);
  return (
    <section aria-labelledby="poll-title">
      <p>
        <a href="/musyawarah">{t("musyawarah.back")}</a>
      </p>
      <Show resource={loaded} lines={6}>
        {(fetched) => {
          const poll = after?.id === fetched.id ? after : fetched;
          return (
            <PollView
              poll={poll}
              onVoted={setAfter}
              reload={() => loaded.state === "ready" && loaded.reload()}
            />
          );
        }}
      </Show>
    </section>
  );
}

function PollView({ poll, onVoted, reload }: { poll: Poll; onVoted: (p: Poll) => void; reload: () => void }) {
  const session = useSession();
  const resident = session.status === "signedIn" && session.user.resident;
  const phase = phaseOf(poll);
  return (
    <>
      <h1 id="poll-title">{poll.title}</h1>
      {poll.description && <p class="poll-description">{poll.description}</p>}
      <dl class="poll-facts">
        <dt>{t("musyawarah.window")}</dt>
        <dd>
          {dateTime(poll.startsAt)} – {dateTime(poll.endsAt)}
        </dd>
        <dt>{t("musyawarah.how")}</dt>
        <dd>
          {poll.multipleChoice ? t("musyawarah.multiple", { n: poll.maxChoices }) : t("musyawarah.single")}
          {" · "}
          {poll.voterScope === "kk" ? t("musyawarah.perHousehold") : t("musyawarah.perPerson")}
          {poll.anonymous ? ` · ${t("musyawarah.anonymous")}` : ""}
        </dd>
      </dl>
      <PhaseNote poll={poll} phase={phase} />
      {resident && phase === "open" && !poll.hasVoted && (
        <Ballot poll={poll} onVoted={onVoted} reload={reload} />
      )}
      {poll.hasVoted && (
        <p class="poll-voted" role="status">
          {poll.voterScope === "kk" ? t("musyawarah.householdVoted") : t("musyawarah.youVoted")}
        </p>
      )}
      <Results poll={poll} />
    </>
  );
}

function PhaseNote({ poll, phase }: { poll: Poll; phase: ReturnType<typeof phaseOf> }) {
  if (phase === "soon") {
    return <p class="card">{t("musyawarah.opens", { at: dateTime(poll.startsAt) })}</p>;
  }
  if (phase === "ended") {
    return <p class="card">{t("musyawarah.ended")}</p>;
  }
  if (phase === "closed") {
    return (
      <p class="card">
        {poll.closedAt ? t("musyawarah.closedAt", { at: dateTime(poll.closedAt) }) : t("musyawarah.closed")}
      </p>
    );
  }
  return null;
}

/** Refusals after which the ballot cannot succeed: the poll is read again so the screen says why. */
const FINAL = new Set(["already_voted", "poll_closed", "poll_ended", "poll_not_open", "poll_not_started"]);

/**
 * The ballot: one option (radio buttons) or up to `maxChoices` (checkboxes; the rest are disabled once the
 * limit is reached). The choice survives a failed send, and pressing the button again resends the same
 * Idempotency-Key (useSubmit), so a vote is never counted twice.
 */
function Ballot({ poll, onVoted, reload }: { poll: Poll; onVoted: (p: Poll) => void; reload: () => void }) {
  const [chosen, setChosen] = useState<string[]>([]);
  const [missing, setMissing] = useState(false);
  const { submit, busy, error, fields } = useSubmit((key) =>
    api.post<Poll>(
      `/api/musyawarah/${encodeURIComponent(poll.id)}/vote`,
      { optionIds: chosen },
      { idempotencyKey: key },
    ),
  );
  const legendId = useId();
  const errorId = `${legendId}-error`;
  const full = poll.multipleChoice && chosen.length >= poll.maxChoices;
  const toggle = (optionId: string, on: boolean) => {
    setMissing(false);
    if (!poll.multipleChoice) {
      setChosen([optionId]);
      return;
    }
    setChosen((c) => (on ? [...c.filter((x) => x !== optionId), optionId] : c.filter((x) => x !== optionId)));
  };
  const send = async (event: Event) => {
    event.preventDefault();
    if (chosen.length === 0) {
      setMissing(true);
      return;
    }
    const voted = await submit();
    if (voted) {
      onVoted(voted);
    }
  };
  const final = error instanceof ApiError && FINAL.has(error.problem.code);
  const fieldError = missing ? t("musyawarah.chooseFirst") : fields.optionIds;
  return (
    <form class="card ballot" onSubmit={send} noValidate>
      <fieldset aria-describedby={fieldError ? errorId : undefined}>
        <legend id={legendId}>
          {poll.multipleChoice
            ? t("musyawarah.chooseMany", { n: poll.maxChoices })
            : t("musyawarah.chooseOne")}
        </legend>
        <ul class="choices">
          {poll.options.map((o) => {
            const on = chosen.includes(o.id);
            return (
              <li key={o.id}>
                <label class="choice">
                  <input
                    type={poll.multipleChoice ? "checkbox" : "radio"}
                    name="optionIds"
                    value={o.id}
                    checked={on}
                    disabled={!on && full}
                    onChange={(e) => toggle(o.id, (e.currentTarget as HTMLInputElement).checked)}
                  />
                  <span>{o.label}</span>
                </label>
              </li>
            );
          })}
        </ul>
        {fieldError && (
          <p id={errorId} class="field-error">
            {fieldError}
          </p>
        )}
      </fieldset>
      {!fields.optionIds && <FormError error={error} />}
      {final ? (
        <button type="button" class="primary" onClick={reload}>
          {t("musyawarah.refresh")}
        </button>
      ) : (
        <Submit busy={busy}>{t("musyawarah.submit")}</Submit>
      )}
    </form>
  );
}

/** The count per option, turnout and quorum, when the poll lets this person see them. */
function Results({ poll }: { poll: Poll }) {
  const { ballots, eligibleVoters } = poll.turnout;
  return (
    <article class="card poll-results" aria-labelledby="poll-results">
      <h2 id="poll-results">{t("musyawarah.results")}</h2>
      {poll.results ? (
        <ul class="results">
          {poll.results.map((r) => {
            const share = ballots > 0 ? Math.round((r.count / ballots) * 100) : 0;
            return (
              <li key={r.optionId}>
                <span class="result-label">
                  <span>{r.label}</span>
                  <strong>{t("musyawarah.count", { n: r.count, pct: share })}</strong>
                </span>
                <span class="bar" aria-hidden="true">
                  <span style={`width: ${share}%`} />
                </span>
              </li>
            );
          })}
        </ul>
      ) : (
        <p class="muted">{t("musyawarah.resultsLater")}</p>
      )}
      <p>
        {eligibleVoters === null
          ? t("musyawarah.turnout", { n: ballots })
          : t("musyawarah.turnoutOf", { n: ballots, of: eligibleVoters })}
      </p>
      {poll.quorum && (
        <p>
          {poll.quorum.kind === "percent"
            ? t("musyawarah.quorumPercent", { n: poll.quorum.value })
            : t("musyawarah.quorumCount", { n: poll.quorum.value })}
          {poll.quorumReached !== null && (
            <>
              {" · "}
              <strong>{poll.quorumReached ? t("musyawarah.quorumMet") : t("musyawarah.quorumNotMet")}</strong>
            </>
          )}
        </p>
      )}
    </article>
  );
}
