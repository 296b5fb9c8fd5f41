import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import type { PollTally } from "../../../src/durable/PollTally";
import { callJson, type TestTenant } from "../../helpers/harness";

export interface PollBody {
  id: string;
  status: string;
  options: { id: string; label: string }[];
  results: { optionId: string; label: string; count: number }[] | null;
  turnout: { ballots: number; eligibleVoters: number | null };
  quorumReached: boolean | null;
  hasVoted?: boolean;
  maxChoices: number;
  endsAt: string;
}

export const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

export async function newPoll(token: string, overrides: Record<string, unknown> = {}) {
  const res = await callJson<PollBody>("/api/musyawarah", {
    token,
    body: {
      title: "Jadwal kerja bakti",
      options: ["Sabtu", "Minggu"],
      startsAt: inMinutes(-1),
      endsAt: inMinutes(60),
      ...overrides,
    },
  });
  if (res.status !== 201) {
    throw new Error(`poll creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body;
}

export async function openPoll(tenant: TestTenant, overrides: Record<string, unknown> = {}) {
  const sekretaris = await tenant.member("sekretaris");
  const poll = await newPoll(sekretaris.token, { status: "aktif", ...overrides });
  return { poll, sekretaris };
}

export function vote(token: string, pollId: string, optionIds: string[]) {
  return callJson<PollBody>(`/api/musyawarah/${pollId}/vote`, { token, body: { optionIds } });
}

export const tallyOf = (tenant: TestTenant, pollId: string) =>
  env.POLL_TALLY.get(env.POLL_TALLY.idFromName(`${tenant.slug}:${pollId}`));

/**
 * Delivers the copy of a poll's ballots to the tenant database that a vote leaves to the object's
 * alarm (ADR 0005): runs the pending alarm as the runtime would. Should the runtime have started it on
 * its own already, the handler is joined instead (it shares the copy in flight and returns once the
 * tenant database is up to date), so no test waits on the clock.
 */
export async function deliverMirror(tenant: TestTenant, pollId: string): Promise<void> {
  const stub = tallyOf(tenant, pollId);
  if (!(await runDurableObjectAlarm(stub))) {
    await runInDurableObject(stub, (tally: PollTally) => tally.alarm());
  }
}
