import { api } from "../../api/client";
import { useLanguage } from "../../i18n";
import { Empty, Show, useResource } from "../../ui/states";
import { DataTable } from "../ui";
import { tx } from "./text";
import { BASE } from "./types";

interface Feature {
  id: string;
  geometry: { coordinates: [number, number] };
  properties: {
    block: string;
    number: string;
    occupancy: "pemilik" | "penyewa" | "kosong" | null;
    families: number;
    persons: number;
  };
}

/**
 * The map's background, when the build sets one: a tile URL template such as
 * `https://tile.example.org/{z}/{x}/{y}.png` (`VITE_MAP_TILES`). Without it (offline, in tests) the plan
 * is the houses' coordinates alone, which needs no network.
 */
const TILES: string | undefined = import.meta.env.VITE_MAP_TILES || undefined;

const TILE = 256;

/** Where the tiles come from, named under the plan (the attribution the tile source asks for). */
function tileHost(template: string): string {
  try {
    return new URL(template.replace(/[{}]/g, ""), location.href).host;
  } catch {
    return template;
  }
}
/** Web Mercator: a coordinate as pixels of the world at zoom `z`. */
function project(lng: number, lat: number, z: number): [number, number] {
  const size = TILE * 2 ** z;
  const s = Math.sin((Math.max(-85, Math.min(85, lat)) * Math.PI) / 180);
  return [((lng + 180) / 360) * size, (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * size];
}

/** `/pengurus/warga/unit`: the houses by their coordinates (GeoJSON from the API) and as a list. */
export function Units() {
  useLanguage();
  const geo = useResource(() =>
    api.get<{ features: Feature[] }>(`${BASE}/units`, { query: { format: "geojson" } }),
  );
  return (
    <section aria-labelledby="units-title">
      <h1 id="units-title">{tx("unitsTitle")}</h1>
      <p class="muted">{tx("unitsIntro")}</p>
      <Show resource={geo} lines={6}>
        {({ features }) =>
          features.length === 0 ? (
            <Empty>{tx("noCoords")}</Empty>
          ) : (
            <div class="reg-map">
              <Plot features={features} />
              <DataTable
                caption={tx("unitsCaption")}
                rows={[...features].sort(
                  (a, b) =>
                    a.properties.block.localeCompare(b.properties.block) ||
                    a.properties.number.localeCompare(b.properties.number, "id", { numeric: true }),
                )}
                rowKey={(f) => f.id}
                columns={[
                  {
                    label: tx("house"),
                    cell: (f) => tx("houseText", { block: f.properties.block, number: f.properties.number }),
                  },
                  {
                    label: tx("coords"),
                    cell: (f) => (
                      <span class="reg-mono">
                        {f.geometry.coordinates[1].toFixed(5)}, {f.geometry.coordinates[0].toFixed(5)}
                      </span>
                    ),
                  },
                  { label: tx("occupancy"), cell: (f) => tx(`oc_${f.properties.occupancy ?? "none"}`) },
                  { label: tx("families"), cell: (f) => f.properties.families, numeric: true },
                  { label: tx("persons"), cell: (f) => f.properties.persons, numeric: true },
                ]}
              />
            </div>
          )
        }
      </Show>
    </section>
  );
}

function Plot({ features }: { features: Feature[] }) {
  const lngs = features.map((f) => f.geometry.coordinates[0]);
  const lats = features.map((f) => f.geometry.coordinates[1]);
  const [x0, y0] = project(Math.min(...lngs), Math.max(...lats), 0);
  const [x1, y1] = project(Math.max(...lngs), Math.min(...lats), 0);
  const span = Math.max(x1 - x0, y1 - y0);
  // The zoom at which the houses span about 500 px (a street fits; one house alone gets zoom 19).
  const z = span > 0 ? Math.max(1, Math.min(19, Math.floor(Math.log2(500 / span)))) : 19;
  const points = features.map((f) => ({
    f,
    at: project(f.geometry.coordinates[0], f.geometry.coordinates[1], z),
  }));
  const pad = 40;
  // Drawn relative to the plan's corner: world pixels at zoom 19 run to 10⁸, past what the browser's
  // single-precision SVG coordinates keep whole.
  const originX = Math.min(...points.map((p) => p.at[0])) - pad;
  const originY = Math.min(...points.map((p) => p.at[1])) - pad;
  const width = Math.max(...points.map((p) => p.at[0])) - originX + pad;
  const height = Math.max(...points.map((p) => p.at[1])) - originY + pad;
  const tiles: { key: string; x: number; y: number; href: string }[] = [];
  if (TILES) {
    for (let col = Math.floor(originX / TILE); col * TILE < originX + width && tiles.length < 64; col++) {
      for (let row = Math.floor(originY / TILE); row * TILE < originY + height && tiles.length < 64; row++) {
        tiles.push({
          key: `${col}/${row}`,
          x: col * TILE - originX,
          y: row * TILE - originY,
          href: TILES.replace("{z}", String(z)).replace("{x}", String(col)).replace("{y}", String(row)),
        });
      }
    }
  }
  const labels = features.length <= 60;
  return (
    <figure class="reg-plot card">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={tx("plotLabel", { n: features.length })}
        preserveAspectRatio="xMidYMid meet"
      >
        <rect x={0} y={0} width={width} height={height} class="reg-plot-ground" />
        {tiles.map((t) => (
          <image key={t.key} href={t.href} x={t.x} y={t.y} width={TILE} height={TILE} />
        ))}
        {points.map(({ f, at }) => (
          <g key={f.id} class={`reg-pin reg-pin-${f.properties.occupancy ?? "none"}`}>
            <circle cx={at[0] - originX} cy={at[1] - originY} r={6}>
              <title>
                {tx("houseText", { block: f.properties.block, number: f.properties.number })}:{" "}
                {f.properties.persons} {tx("persons").toLowerCase()}
              </title>
            </circle>
            {labels && (
              <text x={at[0] - originX + 9} y={at[1] - originY + 4}>
                {f.properties.block} {f.properties.number}
              </text>
            )}
          </g>
        ))}
      </svg>
      <figcaption>
        <ul class="reg-legend" aria-label={tx("legend")}>
          {(["pemilik", "penyewa", "kosong", "none"] as const).map((o) => (
            <li key={o}>
              <span class={`reg-dot reg-pin-${o}`} aria-hidden="true" />
              {tx(`oc_${o}`)}
            </li>
          ))}
        </ul>
        {TILES && <span class="muted">{tx("tiles", { source: tileHost(TILES) })}</span>}
      </figcaption>
    </figure>
  );
}
