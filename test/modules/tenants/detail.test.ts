import { describe, expect, it } from "vitest";
import { callJson, createTenant, expectProblem, operatorToken, unique } from "../../helpers/harness";

/**
 * Issue 47, item 1: the operator's console searches communities on the server (`q` on the list) and
 * opens one community's page from `GET /api/platform/tenants/:id`.
 */

interface Ref {
  id: string;
  slug: string;
  name: string;
  status: string;
}
interface Item extends Ref {
  type: string;
  parentId: string | null;
  parentName: string | null;
  adminCount: number;
  slot: number | null;
  subscription: string;
}
interface Detail extends Item {
  parent: Ref | null;
  children: Ref[];
  invitedAdminCount: number;
}
type Page = { items: Item[]; nextCursor: string | null };

/** A community with a name of the test's own (the harness's are all "RT Uji"). */
async function named(name: string, extra: Record<string, unknown> = {}) {
  const res = await callJson<Item>("/api/platform/tenants", {
    token: await operatorToken(),
    body: {
      slug: unique("cari"),
      name,
      type: "RT",
      admin: { name: "Ketua Cari", email: `${unique("cari")}@warga.test` },
      ...extra,
    },
  });
  expect(res.status).toBe(201);
  return res.body;
}

describe("searching the communities (q)", () => {
  it("matches the slug or the name, ignoring case, and leaves the rest out", async () => {
    const token = await operatorToken();
    const mawar = await named("Griya Mawar Indah");
    const other = await createTenant();
    const byName = await callJson<Page>("/api/platform/tenants?q=MAWAR&limit=100", { token });
    expect(byName.status).toBe(200);
    expect(byName.body.items.map((t) => t.id)).toEqual([mawar.id]);
    const bySlug = await callJson<Page>(`/api/platform/tenants?q=${other.slug.toUpperCase()}`, { token });
    expect(bySlug.body.items.map((t) => t.id)).toEqual([other.id]);
    // The list's fields come with a search as without one.
    expect(byName.body.items[0]).toMatchObject({ type: "RT", adminCount: 0, status: "active" });
    // An empty search is no search.
    const all = await callJson<Page>("/api/platform/tenants?q=%20&limit=100", { token });
    expect(all.body.items.map((t) => t.id)).toEqual(expect.arrayContaining([mawar.id, other.id]));
  });

  it("takes % and _ as themselves, not as patterns", async () => {
    const token = await operatorToken();
    await named("Perumahan Kenanga");
    const percent = await callJson<Page>("/api/platform/tenants?q=%25&limit=100", { token });
    expect(percent.status).toBe(200);
    expect(percent.body.items).toEqual([]);
    const underscore = await callJson<Page>("/api/platform/tenants?q=ken_nga", { token });
    expect(underscore.body.items).toEqual([]);
  });

  it("pages a search by its cursor, with the other filters", async () => {
    const token = await operatorToken();
    const [a, b] = [await named("Taman Melati Satu"), await named("Taman Melati Dua")];
    await named("Taman Kamboja");
    const first = await callJson<Page>("/api/platform/tenants?q=melati&limit=1", { token });
    expect(first.body.items).toHaveLength(1);
    expect(first.body.nextCursor).toBeTruthy();
    const second = await callJson<Page>(
      `/api/platform/tenants?q=melati&limit=1&cursor=${first.body.nextCursor}`,
      { token },
    );
    expect(second.status).toBe(200);
    expect([...first.body.items, ...second.body.items].map((t) => t.id).sort()).toEqual([a.id, b.id].sort());
    expect(second.body.nextCursor).toBeNull();
    const rws = await callJson<Page>("/api/platform/tenants?q=melati&type=RW", { token });
    expect(rws.body.items).toEqual([]);
  });

  it("refuses an over-long search and a cursor this list did not give", async () => {
    const token = await operatorToken();
    const long = await callJson(`/api/platform/tenants?q=${"a".repeat(65)}`, { token });
    expectProblem(long, 400, "invalid_input");
    const mangled = await callJson("/api/platform/tenants?q=rt&cursor=bukan-kursor", { token });
    expectProblem(mangled, 400, "invalid_cursor");
  });

  it("is for platform operators only", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    expectProblem(
      await callJson("/api/platform/tenants?q=rt", { token: admin.token }),
      403,
      "forbidden_role",
    );
  });
});

describe("the parent RW's name on the list (parentName)", () => {
  it("names an RT's parent RW in the same answer, as it is named now; null for an RW and an unlinked RT", async () => {
    const token = await operatorToken();
    const rw = await named("RW 09 Cempaka", { type: "RW" });
    const rt = await named("RT 03 Cempaka", { parentSlug: rw.slug });
    const alone = await named("RT 04 Cempaka");
    const byId = async () => {
      const page = await callJson<Page>("/api/platform/tenants?q=cempaka&limit=100", { token });
      expect(page.status).toBe(200);
      return new Map(page.body.items.map((t) => [t.id, t.parentName]));
    };
    const before = await byId();
    expect(before.get(rt.id)).toBe("RW 09 Cempaka");
    expect(before.get(rw.id)).toBeNull();
    expect(before.get(alone.id)).toBeNull();
    // Read through the link, not copied onto the RT: a renamed RW is named anew.
    const renamed = await callJson(`/api/platform/tenants/${rw.id}`, {
      token,
      method: "PATCH",
      body: { name: "RW 09 Cempaka Baru" },
    });
    expect(renamed.status).toBe(200);
    expect((await byId()).get(rt.id)).toBe("RW 09 Cempaka Baru");
    // The type filter applies to the listed community, not to its parent.
    const rts = await callJson<Page>("/api/platform/tenants?q=cempaka&type=RT&limit=100", { token });
    expect(rts.body.items.map((t) => t.id).sort()).toEqual([rt.id, alone.id].sort());
  });
});

describe("one community (GET /api/platform/tenants/:id)", () => {
  it("answers what the list shows, with its parent RW, an RW's RTs and its invited admins", async () => {
    const token = await operatorToken();
    const rw = await createTenant({ type: "RW" });
    const rt = await createTenant({ parentSlug: rw.slug });
    // The harness's creation invited an admin who never signed in; one more admin signs in.
    await rt.member("admin");

    const one = await callJson<Detail>(`/api/platform/tenants/${rt.id}`, { token });
    expect(one.status).toBe(200);
    const listed = await callJson<Page>(`/api/platform/tenants?q=${rt.slug}`, { token });
    const { parent, children, invitedAdminCount, ...asListed } = one.body;
    expect(asListed).toEqual(listed.body.items[0]);
    expect(one.body).toMatchObject({ type: "RT", parentId: rw.id, slot: rt.slot, adminCount: 1 });
    expect(invitedAdminCount).toBe(1);
    expect(parent).toEqual({ id: rw.id, slug: rw.slug, name: "RT Uji", status: "active" });
    expect(children).toEqual([]);

    const up = await callJson<Detail>(`/api/platform/tenants/${rw.id}`, { token });
    expect(up.body).toMatchObject({ type: "RW", parent: null, adminCount: 0, invitedAdminCount: 1 });
    expect(up.body.children.map((c) => c.slug)).toEqual([rt.slug]);
  });

  it("answers 404 tenant_not_found for an unknown id, and 400 for an over-long one", async () => {
    const token = await operatorToken();
    const missing = await callJson("/api/platform/tenants/01HZZZZZZZZZZZZZZZZZZZZZZZ", { token });
    expectProblem(missing, 404, "tenant_not_found");
    const long = await callJson(`/api/platform/tenants/${"x".repeat(65)}`, { token });
    expectProblem(long, 400, "invalid_input");
  });

  it("is refused to the community's own admin and to nobody signed in", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const own = await callJson(`/api/platform/tenants/${tenant.id}`, { token: admin.token });
    expectProblem(own, 403, "forbidden_role");
    expectProblem(await callJson(`/api/platform/tenants/${tenant.id}`), 401, "unauthorized");
  });
});
