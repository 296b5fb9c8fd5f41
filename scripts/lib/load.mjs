// Closed-loop load on one route for the benches: autocannon drives `connections` clients for `duration`
// seconds. Latencies are taken from each response's own time (autocannon measures it with hrtime, to a
// fraction of a millisecond) rather than from autocannon's histogram, which keeps whole milliseconds: a
// route answering in 4.4 ms and one answering in 4.6 ms were 4 and 5 there, so a ratio of two p50s near
// the floor moved by a quarter between runs of the same code.
import autocannon from "autocannon";

/** The value at quantile `q` (0..1) of `xs`, by the nearest-rank method. */
export function quantile(xs, q) {
  if (xs.length === 0) {
    return 0;
  }
  const sorted = Float64Array.from(xs).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * Loads `url` and resolves to `{ p50, p99, rps, total, non2xx, errors }`: p50/p99 in milliseconds over
 * the answers with a 2xx status, `rps` the mean requests per second over the run. `amount` sends that
 * many requests instead of loading for `duration` seconds.
 */
export function load({ url, headers = {}, method = "GET", body, connections = 8, duration = 5, amount }) {
  const ms = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, headers, method, body, connections, duration, ...(amount ? { amount } : {}) },
      (err, result) => {
        if (err) {
          reject(err);
          return;
        }
        resolve({
          p50: quantile(ms, 0.5),
          p99: quantile(ms, 0.99),
          rps: result.requests.average,
          total: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors,
        });
      },
    );
    instance.on("response", (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) {
        ms.push(responseTime);
      }
    });
  });
}
