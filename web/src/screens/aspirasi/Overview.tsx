import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { date, money } from "../../format";
import { type MessageKey, t } from "../../i18n";
import { useSession } from "../../session";
import { FormError, useSubmit } from "../../ui/forms";
import { type Page, ShowPaged, usePaged } from "../../ui/states";
import type { Complaint, Proposal } from "./types";

/** `/aspirasi`: the three ways to speak up, my complaints with where they stand, and the proposals. */
export function Overview() {
  const complaints = usePaged((cursor) =>
    api.get<Page<Complaint>>("/api/pengaduan/mine", { query: { limit: 20, cursor } }),
  );
  return (
    <section aria-labelledby="aspirasi-title">
      <h1 id="aspirasi-title">{t("aspirasi.title")}</h1>
      <ul class="aspirasi-actions">
        <li>
          <a class="button primary" href="/aspirasi/pengaduan/baru">
            {t("aspirasi.newComplaint")}
          </a>
        </li>
        <li>
          <a class="button" href="/aspirasi/saran">
            {t("aspirasi.newSuggestion")}
          </a>
        </li>
        <li>
          <a class="button" href="/aspirasi/usulan/baru">
            {t("aspirasi.newProposal")}
          </a>
        </li>
      </ul>
      <h2 id="aspirasi-mine">{t("aspirasi.mine")}</h2>
      <ShowPaged paged={complaints} empty={t("aspirasi.mineNone")} lines={3}>
        {(items) => (
          <ul class="rows" aria-labelledby="aspirasi-mine">
            {items.map((c) => (
              <li key={c.id}>
                <a href={`/aspirasi/pengaduan/${c.id}`}>
                  <span class="aspirasi-name">{c.title}</span>
                  <span class="muted">
                    {t(`aspirasi.category.${c.category}` as MessageKey)} · {date(c.createdAt)}
                  </span>
                </a>
                <span class={`badge badge-${c.status}`}>
                  {t(`aspirasi.status.${c.status}` as MessageKey)}
                </span>
              </li>
            ))}
          </ul>
        )}
      </ShowPaged>
      <Proposals />
    </section>
  );
}

function Proposals() {
  const session = useSession();
  const me = session.status === "signedIn" ? session.user.id : null;
  const proposals = usePaged((cursor) =>
    api.get<Page<Proposal>>("/api/usulan", { query: { limit: 20, cursor } }),
  );
  // An endorsement answers the proposal with its new count: shown in place of the listed one.
  const [updated, setUpdated] = useState<Record<string, Proposal>>({});
  return (
    <>
      <h2 id="aspirasi-proposals">{t("aspirasi.proposals")}</h2>
      <ShowPaged paged={proposals} empty={t("aspirasi.proposalsNone")} lines={3}>
        {(items) => (
          <ul class="aspirasi-proposals" aria-labelledby="aspirasi-proposals">
            {items.map((listed) => {
              const p = updated[listed.id] ?? listed;
              return (
                <li key={p.id} class="card">
                  <h3>{p.title}</h3>
                  <p>{p.description}</p>
                  {p.estimatedCost !== null && (
                    <p class="muted">{t("aspirasi.cost", { amount: money(p.estimatedCost) })}</p>
                  )}
                  <p>
                    <span class={`badge badge-${p.status}`}>
                      {t(`aspirasi.proposal.${p.status}` as MessageKey)}
                    </span>{" "}
                    {t("aspirasi.endorsements", { n: p.endorsements })}
                  </p>
                  {p.note && <p class="muted">{p.note}</p>}
                  {p.status === "diajukan" && p.residentId !== me && (
                    <Endorse proposal={p} done={(next) => setUpdated({ ...updated, [next.id]: next })} />
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </ShowPaged>
    </>
  );
}

function Endorse({ proposal, done }: { proposal: Proposal; done: (p: Proposal) => void }) {
  // useSubmit keeps the Idempotency-Key until it succeeds: pressing again after a failure is a retry.
  const form = useSubmit((key) =>
    api.post<Proposal>(`/api/usulan/${proposal.id}/dukung`, undefined, { idempotencyKey: key }),
  );
  if (proposal.endorsedByMe) {
    return <p class="aspirasi-endorsed">{t("aspirasi.endorsed")}</p>;
  }
  const endorse = async () => {
    const next = await form.submit();
    if (next) {
      done(next);
    }
  };
  return (
    <>
      <button
        type="button"
        onClick={endorse}
        disabled={form.busy}
        aria-label={t("aspirasi.endorseLabel", { title: proposal.title })}
      >
        {form.busy ? t("common.sending") : t("aspirasi.endorse")}
      </button>
      <FormError error={form.error} />
    </>
  );
}
