// Demo gallery albums per RT tenant. Photos live in R2, so they arrive through the API instead
// (scripts/seed/api/galeri.mjs, on `npm run dev`); an album without them shows "no photos yet".

const ALBUMS = [
  {
    key: "kerja-bakti",
    title: "Kerja bakti saluran air",
    description: "Warga membersihkan saluran air blok A dan B.",
    daysAgo: 6,
  },
  {
    key: "17an",
    title: "Lomba 17 Agustus",
    description: "Balap karung, tarik tambang dan makan kerupuk di lapangan RW.",
    daysAgo: 100,
  },
];

const DAY = 86_400_000;

export function tenantSql({ accounts, tenant, rt, now: nowIso, q }) {
  const author =
    accounts.find((a) => a.tenant === tenant.id && a.roles.includes("sekretaris")) ??
    accounts.find((a) => a.tenant === tenant.id && a.roles.includes("admin"));
  if (!rt || !author) {
    return "";
  }
  const now = new Date(nowIso);
  return ALBUMS.map((a) => {
    const at = new Date(now.getTime() - a.daysAgo * DAY).toISOString();
    return `INSERT OR IGNORE INTO gallery_albums (id, title, description, event_date, created_by, created_at, updated_at)
VALUES (${q(`seed-album-${tenant.slug}-${a.key}`)}, ${q(a.title)}, ${q(a.description)}, ${q(at.slice(0, 10))}, ${q(author.id)}, ${q(at)}, ${q(at)});`;
  }).join("\n");
}
