/**
 * The polls' verbs, by subject: what they share (`polls.ts`), polls written (`poll-writes.ts`) and read
 * (`poll-reads.ts`), votes cast (`voting.ts`) and the tally's mirror in the tenant database
 * (`mirror.ts`).
 */

export { mirrorTally, type TallyMirror } from "./mirror";
export { countActivePolls, getPoll, listPolls, listVotes, publishedPoll } from "./poll-reads";
export { createPoll, deletePoll, updatePoll } from "./poll-writes";
export { presentPoll } from "./polls";
export { castVote } from "./voting";
