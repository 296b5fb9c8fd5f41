import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { jobs, routeTable } from "../../src/app";
import { DbScope } from "../../src/core/db/handles";
import { credentialAnswerOf } from "../../src/core/http/endpoint";
import { CRON, runScheduled } from "../../src/core/jobs";
import { tenantClient, tenantSessionDb } from "../../src/core/tenancy/slots";
import { systemPlatformCtx } from "../../src/core/tenancy/system";
import { reservationAttachment } from "../../src/platform/idempotency/hook";
import { setNow } from "../helpers/clock";
import { tenantD1, withTrigger } from "../helpers/d1";
import {
  bindings,
  call,
  callJson,
  createTenant,
  expectProblem,
  type Member,
  type TestTenant,
} from "../helpers/harness";

const complaint = (title = "Lampu jalan mati") => ({
  title,
  description: "Lampu di depan blok C mati sejak Senin",
  category: "infrastruktur",
});

const complain = (who: Member, key: string | undefined, body: Record<string, unknown> = complaint()) =>
  callJson<{ id: string; title: string }>("/api/pengaduan", {
    token: who.token,
    body,
    headers: key ? { "Idempotency-Key": key } : {},
  });

async function complaintsOf(tenant: TestTenant, who: Member): Promise<number> {
  const row = await tenantD1(tenant)
    .prepare("SELECT count(*) AS n FROM complaints WHERE resident_id = ?")
    .bind(who.id)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function keyRow(tenant: TestTenant, key: string) {
  return tenantD1(tenant)
    .prepare("SELECT scope, state, status FROM idempotency_keys WHERE key = ?")
    .bind(key)
    .all<{ scope: string; state: string; status: number | null }>();
}

async function community() {
  const tenant = await createTenant();
  return { tenant, a: await tenant.member("warga"), b: await tenant.member("warga") };
}

describe("Idempotency-Key on writes (ADR 0034)", () => {
  it("replays the first answer for the same key and body, and writes once", async () => {
    const { tenant, a } = await community();
    const first = await complain(a, "hp-retry-1");
    expect(first.status).toBe(201);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    const again = await complain(a, "hp-retry-1");
    expect(again.status).toBe(201);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(again.headers.get("Content-Type")).toContain("application/json");
    expect(again.body).toEqual(first.body);
    expect(await complaintsOf(tenant, a)).toBe(1);
    expect((await keyRow(tenant, "hp-retry-1")).results).toMatchObject([{ state: "done", status: 201 }]);
    // Without the header every request is its own.
    await complain(a, undefined);
    expect(await complaintsOf(tenant, a)).toBe(2);
  });

  it("refuses the same key with another body (422 idempotency_key_reused) and writes nothing", async () => {
    const { tenant, a } = await community();
    await complain(a, "hp-reuse");
    const other = await complain(a, "hp-reuse", complaint("Got mampet"));
    expectProblem(other, 422, "idempotency_key_reused");
    expect(await complaintsOf(tenant, a)).toBe(1);
  });

  it("answers 409 idempotency_in_progress with Retry-After while the first request holds the key", async () => {
    const { tenant, a } = await community();
    const held = await complain(a, "hp-held");
    expect(held.status).toBe(201);
    // Put the key back as a request still running would hold it: pending, lease ahead, no answer.
    await tenantD1(tenant)
      .prepare(
        "UPDATE idempotency_keys SET state = 'pending', status = NULL, body = NULL, locked_until = ? WHERE key = 'hp-held'",
      )
      .bind(new Date(Date.now() + 60_000).toISOString())
      .run();
    const second = await complain(a, "hp-held");
    expectProblem(second, 409, "idempotency_in_progress");
    expect(second.headers.get("Retry-After")).toBe("1");
    expect(await complaintsOf(tenant, a)).toBe(1);
  });

  it("a change written whose answer was lost (a crash in between) is never run again: 409 idempotency_answer_lost", async () => {
    const { tenant, a } = await community();
    await complain(a, "hp-lost");
    const rig = (lockedUntil: Date) =>
      tenantD1(tenant)
        .prepare(
          "UPDATE idempotency_keys SET state = 'committed', status = NULL, body = NULL, locked_until = ? WHERE key = 'hp-lost'",
        )
        .bind(lockedUntil.toISOString())
        .run();
    await rig(new Date(Date.now() + 60_000));
    expectProblem(await complain(a, "hp-lost"), 409, "idempotency_in_progress");
    await rig(new Date(Date.now() - 1_000));
    const lost = await complain(a, "hp-lost");
    expectProblem(lost, 409, "idempotency_answer_lost");
    expect(await complaintsOf(tenant, a)).toBe(1);
  });

  it("a reservation whose request died before writing is taken over after its lease", async () => {
    const { tenant, a } = await community();
    await complain(a, "hp-dead");
    await tenantD1(tenant).prepare("DELETE FROM complaints WHERE resident_id = ?1").bind(a.id).run();
    await tenantD1(tenant)
      .prepare(
        "UPDATE idempotency_keys SET state = 'pending', status = NULL, body = NULL, locked_until = ? WHERE key = 'hp-dead'",
      )
      .bind(new Date(Date.now() - 1_000).toISOString())
      .run();
    const retried = await complain(a, "hp-dead");
    expect(retried.status).toBe(201);
    expect(retried.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await complaintsOf(tenant, a)).toBe(1);
  });

  it("a write through the request's D1 session marks the reservation's own row, never one another request took over", async () => {
    const { tenant, a } = await community();
    const home = tenantD1(tenant);
    const scope = `user:${a.id}@${tenant.slug}`;
    const now = new Date().toISOString();
    // Another request took the key over after this one's lease ran out: the row is theirs now.
    await home
      .prepare(
        "INSERT INTO idempotency_keys (scope, key, actor_id, request_hash, state, owner, locked_until, created_at) " +
          "VALUES (?1, 'hp-session', ?2, 'h', 'pending', 'owner-b', ?3, ?3)",
      )
      .bind(scope, a.id, now)
      .run();
    const request = new DbScope();
    const { db } = tenantSessionDb(bindings, tenant.slot, "first-primary", undefined, request);
    const reservation = {
      ...{ scope, key: "hp-session", actorId: a.id, requestHash: "h", owner: "owner-a", home },
      ...{ lockedUntil: now, createdAt: now, committed: false },
    };
    request.attach(reservationAttachment(reservation));
    await tenantClient(db).prepare("UPDATE complaints SET title = title WHERE 0").run();
    expect(reservation.committed).toBe(true);
    const row = await home
      .prepare("SELECT owner, state FROM idempotency_keys WHERE scope = ?1 AND key = 'hp-session'")
      .bind(scope)
      .first();
    expect(row).toEqual({ owner: "owner-b", state: "pending" });
  });

  it("runs two concurrent requests with one key once", async () => {
    const { tenant, a } = await community();
    const answers = await Promise.all([complain(a, "hp-pair"), complain(a, "hp-pair")]);
    expect(await complaintsOf(tenant, a)).toBe(1);
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses[0]).toBe(201);
    // The loser either waited for the replay or was told to ask again.
    expect([201, 409]).toContain(statuses[1]);
    const loser = answers.find((r) => r.headers.get("Idempotent-Replayed") === "true" || r.status === 409);
    expect(loser).toBeDefined();
  });

  it("scopes keys by caller: another resident's same key is their own request", async () => {
    const { tenant, a, b } = await community();
    const mine = await complain(a, "hp-shared");
    const theirs = await complain(b, "hp-shared");
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("Idempotent-Replayed")).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await complaintsOf(tenant, a)).toBe(1);
    expect(await complaintsOf(tenant, b)).toBe(1);
    expect((await keyRow(tenant, "hp-shared")).results.map((r) => r.scope).sort()).toEqual(
      [`user:${a.id}@${tenant.slug}`, `user:${b.id}@${tenant.slug}`].sort(),
    );
  });

  it("forgets a key after 24 hours, and the hourly sweep deletes it", async () => {
    const { tenant, a } = await community();
    setNow("2026-11-20T03:00:00Z");
    await complain(a, "hp-old");
    setNow("2026-11-21T02:59:00Z");
    expect((await complain(a, "hp-old")).headers.get("Idempotent-Replayed")).toBe("true");
    const system = systemPlatformCtx(bindings, "test");
    await runScheduled(system, jobs, CRON.HOURLY, new Date("2026-11-21T02:00:00Z"));
    expect((await keyRow(tenant, "hp-old")).results).toHaveLength(1);
    await runScheduled(system, jobs, CRON.HOURLY, new Date("2026-11-21T04:00:00Z"));
    expect((await keyRow(tenant, "hp-old")).results).toHaveLength(0);
    setNow("2026-11-21T04:00:00Z");
    const fresh = await complain(a, "hp-old");
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await complaintsOf(tenant, a)).toBe(2);
  });

  it("a key past 24 hours is not replayed even before the sweep", async () => {
    const { tenant, a } = await community();
    setNow("2026-11-20T03:00:00Z");
    await complain(a, "hp-late");
    setNow("2026-11-21T03:00:01Z");
    const late = await complain(a, "hp-late");
    expect(late.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await complaintsOf(tenant, a)).toBe(2);
  });

  it("a change whose batch fails leaves the key uncommitted, and the retry runs", async () => {
    const { tenant, a } = await community();
    const failed = await withTrigger(
      tenantD1(tenant),
      "idem_fault",
      `BEFORE INSERT ON complaint_messages WHEN NEW.author_id = '${a.id}' BEGIN SELECT RAISE(ABORT, 'injected'); END`,
      () => complain(a, "hp-fault"),
    );
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(await complaintsOf(tenant, a)).toBe(0);
    expect((await keyRow(tenant, "hp-fault")).results).toHaveLength(0);
    const retried = await complain(a, "hp-fault");
    expect(retried.status).toBe(201);
    expect(retried.headers.get("Idempotent-Replayed")).toBeNull();
    expect(await complaintsOf(tenant, a)).toBe(1);
  });

  it("a refused request (400) releases its key", async () => {
    const { tenant, a } = await community();
    expectProblem(await complain(a, "hp-bad", { title: "" }), 400, "invalid_input");
    expect((await keyRow(tenant, "hp-bad")).results).toHaveLength(0);
    expect((await complain(a, "hp-bad")).status).toBe(201);
  });

  it("a community request whose change goes to the platform database marks the key there, and replays", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const ticket = {
      category: "tagihan",
      title: "Tagihan ganda",
      detail: "Tagihan bulan ini muncul dua kali",
    };
    const open = () =>
      callJson<{ id: string }>("/api/support-tickets", {
        token: admin.token,
        body: ticket,
        headers: { "Idempotency-Key": "tiket-1" },
      });
    const first = await open();
    expect(first.status).toBe(201);
    // The creator's answer carries the ticket's reply_token: never kept, so the repeat is 409, not a
    // second ticket (issue 44, P4).
    expectProblem(await open(), 409, "idempotency_answer_unavailable");
    const tickets = await bindings.PLATFORM_DB.prepare(
      "SELECT count(*) AS n FROM support_tickets WHERE tenant_id = ?",
    )
      .bind(tenant.id)
      .first<{ n: number }>();
    expect(tickets?.n).toBe(1);
    const marker = await bindings.PLATFORM_DB.prepare(
      "SELECT state FROM idempotency_keys WHERE key = 'tiket-1'",
    ).all();
    expect(marker.results).toEqual([{ state: "committed" }]);
    expect((await keyRow(tenant, "tiket-1")).results).toMatchObject([{ state: "done", status: 201 }]);
    const kept = await tenantD1(tenant)
      .prepare("SELECT body FROM idempotency_keys WHERE key = 'tiket-1'")
      .first();
    expect(kept).toEqual({ body: null });
  });

  it("hashes a body against the route's own cap: past it, 413 before the key is hashed or looked up (P5)", async () => {
    const { tenant, a } = await community();
    // Another request holds each key (running, another body): a body hashed and looked up would meet it
    // (422 idempotency_key_reused); one refused at the route's 64 KiB cap never gets that far.
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 60_000).toISOString();
    for (const key of ["hp-big", "hp-big-stream"]) {
      await tenantD1(tenant)
        .prepare(
          "INSERT INTO idempotency_keys (scope, key, actor_id, request_hash, state, owner, locked_until, created_at) " +
            "VALUES (?1, ?2, ?3, 'another body', 'pending', 'holder', ?4, ?5)",
        )
        .bind(`user:${a.id}@${tenant.slug}`, key, a.id, later, now)
        .run();
    }
    // 1 MiB: far past the route's cap, far below the 16 MiB that was once read and hashed first.
    const big = JSON.stringify({ ...complaint(), description: "x".repeat(1024 * 1024) });
    const send = (key: string, body: BodyInit) =>
      exports.default.fetch(
        new Request("http://api.test/api/pengaduan", {
          method: "POST",
          headers: {
            Authorization: `Bearer ${a.token}`,
            "Content-Type": "application/json",
            "Idempotency-Key": key,
          },
          body,
          duplex: "half",
        } as RequestInit),
      );
    // From Content-Length, and from a stream that declares no length (cut off at the cap while read).
    const declared = await send("hp-big", big);
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { code: string }).code).toBe("payload_too_large");
    const streamed = await send("hp-big-stream", new Blob([big]).stream());
    expect(streamed.headers.get("Content-Length")).toBeNull();
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { code: string }).code).toBe("payload_too_large");
    expect(await complaintsOf(tenant, a)).toBe(0);
  });

  it("refuses a malformed key", async () => {
    const { a } = await community();
    const res = await call("/api/pengaduan", {
      token: a.token,
      body: complaint(),
      headers: { "Idempotency-Key": "dua kata" },
    });
    expect(res.status).toBe(400);
  });
});

/** A field of an answer that is a credential: a token, a key, a secret, a password. */
const CREDENTIAL_FIELD = /(^token$|token$|^apikey$|apikey|secret|password$|credential)/i;

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

/** The credential-like property names anywhere in `schema`, `$ref`s followed once each. */
function credentialFields(
  schema: JsonSchema | undefined,
  components: Record<string, JsonSchema>,
  seen = new Set<string>(),
): string[] {
  if (!schema) {
    return [];
  }
  if (schema.$ref) {
    const name = schema.$ref.split("/").pop() ?? "";
    if (seen.has(name)) {
      return [];
    }
    seen.add(name);
    return credentialFields(components[name], components, seen);
  }
  const found: string[] = [];
  for (const [name, value] of Object.entries(schema.properties ?? {})) {
    // A flag about a credential (`hasPassword`) is not one.
    if (CREDENTIAL_FIELD.test(name) && value.type !== "boolean") {
      found.push(name);
    }
    found.push(...credentialFields(value, components, seen));
  }
  for (const part of [
    schema.items,
    ...(schema.anyOf ?? []),
    ...(schema.oneOf ?? []),
    ...(schema.allOf ?? []),
  ]) {
    found.push(...credentialFields(part, components, seen));
  }
  return found;
}

describe("answers that carry credentials are never kept for replay (issue 44, P4)", () => {
  it("a new gate device's API key is never kept: the repeat is 409 idempotency_answer_unavailable, one device", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const add = () =>
      callJson<{ device: { id: string }; apiKey: string }>("/api/gate-devices", {
        token: admin.token,
        body: { name: "Gerbang utama", adapter: "generic" },
        headers: { "Idempotency-Key": "gerbang-1" },
      });
    const first = await add();
    expect(first.status).toBe(201);
    expect(first.body.apiKey).toBeTruthy();
    const again = await add();
    expectProblem(again, 409, "idempotency_answer_unavailable");
    expect(JSON.stringify(again.body)).not.toContain(first.body.apiKey);
    const rows = await tenantD1(tenant)
      .prepare("SELECT state, status, headers, body FROM idempotency_keys WHERE key = 'gerbang-1'")
      .all();
    expect(rows.results).toEqual([{ state: "done", status: 201, headers: null, body: null }]);
    const devices = await callJson<{ items: unknown[] }>("/api/gate-devices", { token: admin.token });
    expect(devices.body.items).toHaveLength(1);
  });

  it("every write whose answer has a credential-like field declares how it meets Idempotency-Key", async () => {
    const doc = await callJson<{
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }> }>
      >;
      components: { schemas: Record<string, JsonSchema> };
    }>("/openapi.json");
    const undeclared: string[] = [];
    const declared: string[] = [];
    for (const route of routeTable) {
      if (route.method === "get") {
        continue;
      }
      const op = doc.body.paths[route.path.replace(/:(\w+)/g, "{$1}")]?.[route.method];
      const fields = Object.entries(op?.responses ?? {})
        .filter(([status]) => status.startsWith("2"))
        .flatMap(([, answer]) =>
          Object.values(answer.content ?? {}).flatMap((c) =>
            credentialFields(c.schema, doc.body.components.schemas),
          ),
        );
      if (fields.length === 0) {
        continue;
      }
      const name = `${route.method} ${route.path} (${[...new Set(fields)].join(", ")})`;
      (credentialAnswerOf(route.endpoint) ? declared : undeclared).push(name);
    }
    expect(undeclared).toEqual([]);
    // The walk finds what the probe named: a device's key and the tokens of a tenant switch.
    expect(declared.join("\n")).toContain("post /api/gate-devices (");
    expect(declared.join("\n")).toContain("post /api/auth/switch-tenant (");
  });
});
