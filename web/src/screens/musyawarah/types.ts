/** A poll as `GET /api/musyawarah/:id` answers it (src/modules/musyawarah/schemas.ts `Poll`). */
export interface Poll {
  id: string;
  title: string;
  description: string | null;
  options: { id: string; label: string }[];
  startsAt: string;
  endsAt: string;
  status: "draft" | "aktif" | "ditutup";
  quorum: { kind: "percent" | "count"; value: number } | null;
  anonymous: boolean;
  multipleChoice: boolean;
  maxChoices: number;
  voterScope: "warga" | "kk";
  resultsVisibility: "always" | "after_close";
  /** Null while hidden from this person (`after_close` before the poll closes). */
  results: { optionId: string; label: string; count: number }[] | null;
  turnout: { ballots: number; eligibleVoters: number | null };
  quorumReached: boolean | null;
  /** Residents only. */
  hasVoted?: boolean;
  closedAt: string | null;
}

/** Where a poll stands for voting now: the API decides, this only chooses what to say. */
export type Phase = "soon" | "open" | "ended" | "closed";

export function phaseOf(poll: Poll, now = Date.now()): Phase {
  if (poll.status === "ditutup") {
    return "closed";
  }
  if (now < Date.parse(poll.startsAt)) {
    return "soon";
  }
  return now >= Date.parse(poll.endsAt) ? "ended" : "open";
}
