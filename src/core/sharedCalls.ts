/** Hands work that must finish after the answer to the runtime (routes pass `executionCtx.waitUntil`). */
export type After = (work: Promise<unknown>) => void;

type Done<R> = { value: R } | { error: unknown };

interface Waiting<I, R> {
  item: I;
  done?: Done<R>;
}

interface Lane<I, R> {
  waiting: Waiting<I, R>[];
  inFlight: Promise<void> | null;
}

/** Sends the items of one call and answers one result per item, in order. */
export type Send<I, R> = (items: I[]) => Promise<R[]>;

/**
 * Calls that share round trips within one isolate (group commit). Items given for the same key while a
 * call for that key is in flight wait for it, then go together in the next call (at most `max` items),
 * so a burst makes one call per round trip instead of queueing a call per item behind the last. Each
 * caller gets its own item's result, or the call's error.
 *
 * The call is made with the `send` of the caller that starts it, for every item it carries: keys must
 * therefore name one tenant's resource (its slug first), so that any caller's `send` reaches the same
 * place. The caller that makes a call is always waiting on it (its own item is still unsettled), and
 * hands it to `keep` (its `waitUntil`), so a call finishes even if that caller's client goes away; the
 * other callers wait on a call of a request that is still running.
 */
export function sharedCalls<I, R>(max: number) {
  const lanes = new Map<string, Lane<I, R>>();

  return async function call(key: string, item: I, send: Send<I, R>, keep?: After): Promise<R> {
    let lane = lanes.get(key);
    if (!lane) {
      lane = { waiting: [], inFlight: null };
      lanes.set(key, lane);
    }
    const current = lane;
    const mine: Waiting<I, R> = { item };
    current.waiting.push(mine);
    while (!mine.done) {
      if (current.inFlight) {
        await current.inFlight;
        continue;
      }
      const taken = current.waiting.splice(0, max);
      const flight = Promise.resolve()
        .then(() => send(taken.map((w) => w.item)))
        .then((results) => {
          if (results.length !== taken.length) {
            throw new Error(`a shared call answered ${results.length} results for ${taken.length} items`);
          }
          taken.forEach((w, i) => {
            w.done = { value: results[i] as R };
          });
        })
        .catch((error: unknown) => {
          for (const w of taken) {
            w.done ??= { error };
          }
        })
        .finally(() => {
          current.inFlight = null;
          if (current.waiting.length === 0 && lanes.get(key) === current) {
            lanes.delete(key);
          }
        });
      current.inFlight = flight;
      keep?.(flight);
      await flight;
    }
    if ("error" in mine.done) {
      throw mine.done.error;
    }
    return mine.done.value;
  };
}
