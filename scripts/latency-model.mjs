#!/usr/bin/env node
// The latency model of ADR 0036 (read replicas and placement): what a resident in Jakarta, Medan or
// Makassar waits for a Warga request, with the D1 primary in one region, for three set-ups: the Worker
// where the request lands (today), the same with D1 read replicas through the Sessions API, and Smart
// Placement (the Worker moved next to the primary). It cannot be measured from here, so it is computed:
//
//   wait = last mile + Σ over the request's sequential D1 round trips of the round trip to where each goes
//
// Round trips between two places are estimated from their great-circle distance: light in fibre covers
// about 200 km per ms, real paths are longer than the great circle (PATH_STRETCH), plus a little
// switching (HOP_MS). Inputs and their sources are below; every one is an estimate, so the model ranks
// set-ups and shows where the milliseconds go rather than predicting a p50.
//
//   node scripts/latency-model.mjs          the table
//   node scripts/latency-model.mjs --json   the rows as JSON

import { pathToFileURL } from "node:url";

/** Light in optical fibre: about two thirds of c, ~200 km per millisecond. */
export const FIBRE_KM_PER_MS = 200;
/** How much longer a real route is than the great circle (submarine cables around Sumatra and Borneo). */
export const PATH_STRETCH = 1.6;
/** Switching and queueing per round trip. */
export const HOP_MS = 2;
/** A D1 query next to its database (the Worker and the instance in the same place). */
export const LOCAL_TRIP_MS = 1;
/**
 * The resident's own link to the nearest Cloudflare data center: the mean mobile latency in Indonesia
 * measured by Ookla Speedtest Intelligence (Q1 2020: 42 ms mobile, 20 ms fixed broadband; reported in
 * "Investigating the Gaming Experience in Indonesia", gsma.com). A resident's request first crosses it.
 */
export const LAST_MILE_MS = 42;

/** Coordinates (degrees) of the places the model uses. */
export const PLACES = {
  Jakarta: [-6.2088, 106.8456],
  Medan: [3.5952, 98.6722],
  Makassar: [-5.1477, 119.4327],
  Singapore: [1.3521, 103.8198],
  Tokyo: [35.6762, 139.6503],
  Sydney: [-33.8688, 151.2093],
  "San Jose": [37.3382, -121.8863],
  London: [51.5072, -0.1276],
};

/**
 * D1's regions (its location hints: wnam, enam, weur, eeur, apac, oc; developers.cloudflare.com/d1/
 * configuration/data-location/). D1 keeps one read replica in every region, the primary's included
 * (d1/best-practices/read-replication/, "Read replica locations"). Cloudflare does not publish the city of
 * each region: the city here is the model's assumption, the region's main interconnection hub, and apac
 * is also tried in Tokyo. ENAM and EEUR are left out: from Indonesia they are only farther than WNAM/WEUR.
 */
export const PRIMARIES = [
  { label: "apac", primary: "Singapore", apac: "Singapore" },
  { label: "apac (if Tokyo)", primary: "Tokyo", apac: "Tokyo" },
  { label: "oc", primary: "Sydney", apac: "Singapore" },
  { label: "wnam", primary: "San Jose", apac: "Singapore" },
  { label: "weur", primary: "London", apac: "Singapore" },
];

/** The places of the replicas: one per region, apac where that row assumes it is. */
function replicas(apac) {
  return [apac, "Sydney", "San Jose", "London"];
}

/**
 * Where each resident's request enters Cloudflare. Jakarta (CGK) is on Cloudflare's list of data
 * centers (cloudflare.com/network, cloudflarestatus.com); which other Indonesian cities have one changes
 * over time, so check the list before reading the Medan and Makassar rows. The model serves Medan from a
 * data center in Medan and Makassar from Jakarta, the conservative case (one in Makassar would shorten
 * every D1 trip by the Makassar–Jakarta leg; the `via` column says which was used).
 */
export const RESIDENTS = [
  { city: "Jakarta", ingress: "Jakarta" },
  { city: "Medan", ingress: "Medan" },
  { city: "Makassar", ingress: "Jakarta" },
];

/**
 * Requests by their sequential D1 round trips (ADR 0036): `reads` of the community's database (a
 * session may serve them from a replica), `writes` (always the primary) and `platform` (the platform
 * database, which stays on its primary). The tenant record and the sign-in check are cached per isolate
 * (ADR 0007, core/auth/liveness.ts), so a warm read touches only the community's database.
 */
export const REQUESTS = [
  { name: "list or detail (warm isolate)", reads: 1, writes: 0, platform: 0, share: 0.7 },
  { name: "read, cold isolate", reads: 1, writes: 0, platform: 2, share: 0.05 },
  { name: "staff dashboard", reads: 4, writes: 0, platform: 0, share: 0.05 },
  { name: "write with Idempotency-Key", reads: 1, writes: 3, platform: 0, share: 0.2 },
];

const toRad = (deg) => (deg * Math.PI) / 180;

/** Great-circle distance in km (haversine, mean Earth radius). */
export function distanceKm(a, b) {
  const [lat1, lon1] = PLACES[a];
  const [lat2, lon2] = PLACES[b];
  const h =
    Math.sin(toRad(lat2 - lat1) / 2) ** 2 +
    Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(toRad(lon2 - lon1) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Estimated round trip between two places, in ms; a place to itself is a local trip. */
export function rttMs(a, b) {
  if (a === b) {
    return LOCAL_TRIP_MS;
  }
  return (2 * distanceKm(a, b) * PATH_STRETCH) / FIBRE_KM_PER_MS + HOP_MS;
}

/** The replica a session's read reaches from `from`: the nearest one. */
export function nearestReplica(from, apac) {
  return replicas(apac).sort((x, y) => rttMs(from, x) - rttMs(from, y))[0];
}

/**
 * One resident, one primary, one request: the wait in ms where the Worker runs at the edge (where the
 * request enters Cloudflare) and where Smart Placement runs it (a data center by the primary, reached
 * by one crossing, every D1 trip there local), each without and with read replicas.
 */
export function waits(resident, where, request) {
  const at = resident.ingress;
  const mile = LAST_MILE_MS + (resident.city === at ? 0 : rttMs(resident.city, at));
  const toPrimary = rttMs(at, where.primary);
  const toReplica = rttMs(at, nearestReplica(at, where.apac));
  const primaryTrips = request.writes + request.platform;
  return {
    edge: mile + (request.reads + primaryTrips) * toPrimary,
    sessions: mile + request.reads * toReplica + primaryTrips * toPrimary,
    placed: mile + toPrimary + (request.reads + primaryTrips) * LOCAL_TRIP_MS,
  };
}

/**
 * Every row: primary × resident × request, with four set-ups. Smart Placement decides per Worker and
 * per location where requests enter, not per request: it moves all of a location's requests when their
 * duration is lower by the primary (developers.cloudflare.com/workers/configuration/placement/). The
 * model decides the same way, on the mix of requests weighted by `share`, once without and once with
 * replicas (`smart`, `smartSessions`); `moved` and `movedSessions` say whether it moved.
 */
export function model() {
  const rows = [];
  for (const where of PRIMARIES) {
    for (const resident of RESIDENTS) {
      const all = REQUESTS.map((request) => ({ request, ...waits(resident, where, request) }));
      const mix = (key) => all.reduce((sum, w) => sum + w.request.share * w[key], 0);
      const moved = mix("placed") < mix("edge");
      const movedSessions = mix("placed") < mix("sessions");
      for (const w of all) {
        rows.push({
          primary: where.label,
          city: resident.city,
          via: resident.ingress,
          request: w.request.name,
          edge: w.edge,
          sessions: w.sessions,
          smart: moved ? w.placed : w.edge,
          smartSessions: movedSessions ? w.placed : w.sessions,
          moved,
          movedSessions,
        });
      }
    }
  }
  return rows;
}

function table(rows) {
  const ms = (n, moved) => `${String(Math.round(n)).padStart(5)}${moved ? "*" : " "}`;
  const lines = [
    "primary          resident  via      request                         edge  sessions  smart  smart+sessions",
    "---------------  --------  -------  -----------------------------  -----  --------  -----  --------------",
  ];
  for (const r of rows) {
    const where = `${r.primary.padEnd(15)}  ${r.city.padEnd(8)}  ${r.via.padEnd(7)}  ${r.request.padEnd(29)}`;
    lines.push(
      `${where}  ${ms(r.edge)}   ${ms(r.sessions)} ${ms(r.smart, r.moved)}        ${ms(r.smartSessions, r.movedSessions)}`,
    );
  }
  lines.push(
    "",
    `ms per request, estimated: last mile ${LAST_MILE_MS} ms + D1 round trips (great circle × ${PATH_STRETCH} at ` +
      `${FIBRE_KM_PER_MS} km/ms + ${HOP_MS} ms each). * Smart Placement moved that resident's requests to the primary.`,
  );
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const rows = model();
  process.stdout.write(`${process.argv.includes("--json") ? JSON.stringify(rows, null, 2) : table(rows)}\n`);
}
