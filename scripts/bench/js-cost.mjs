// One round of the taped loop (scripts/bench/entry.ts `/__js-cost`): a route run `n` times inside the
// isolate against the tape of its D1 answers, and the workerd process's CPU over the loop per request.
// `read-path` measures the tenant read and the bare route with it; `js-cost-ab.mjs` two builds.

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU ms per request of one round; any answer but 200 (or a loop that did not run) throws. */
export async function jsCostRound(server, { path, n, token }) {
  const cpu0 = server.cpu();
  const res = await fetch(`${server.url}/__js-cost?path=${encodeURIComponent(path)}&n=${n}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const answer = await res.json();
  if (!res.ok || answer.statuses.join() !== "200") {
    throw new Error(`js-cost ${path}: ${res.status} ${JSON.stringify(answer)}`);
  }
  return ((server.cpu() - cpu0) * 1000) / n;
}
