import { personalColumns, personalData } from "../../core/module";
import { polls, pollVoters } from "./tables";

/** How its tenant tables hold personal data (core/module.ts PersonalColumns; export and erasure). */
export const musyawarahPersonalData = personalData(
  personalColumns(polls, {
    subjects: [polls.createdBy],
    other: [
      polls.id,
      polls.title,
      polls.description,
      polls.options,
      polls.startsAt,
      polls.endsAt,
      polls.status,
      polls.quorumKind,
      polls.voterScope,
      polls.resultsVisibility,
      polls.results,
      polls.createdAt,
      polls.updatedAt,
      polls.openedAt,
      polls.closedAt,
    ],
  }),
  personalColumns(pollVoters, {
    subjects: [pollVoters.userId],
    other: [pollVoters.pollId, pollVoters.voterKey, pollVoters.votedAt],
  }),
);
