import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { beforeEach, describe, expect, it, vi } from "vitest";
import worker from "../../../src/index";
import { inHours, keepToDaytime } from "../../helpers/clock";
import { countingD1, sentD1, tenantD1, withTrigger } from "../../helpers/d1";
import {
  bindings,
  call,
  callJson,
  createTenant,
  expectProblem,
  operatorToken,
  type TestTenant,
} from "../../helpers/harness";

interface DeviceBody {
  id: string;
  name: string;
  adapter: string;
  keyPrefix: string;
  active: boolean;
  lastSeenAt: string | null;
}

let seq = 0;
async function approvedPass(tenant: TestTenant, token: string) {
  seq += 1;
  const warga = await tenant.member("warga", {
    unitId: `gate-unit-${seq}`,
    whatsapp: `62813${String(seq).padStart(7, "0")}`,
  });
  const created = await callJson<{ id: string }>("/api/visitor", {
    token: warga.token,
    body: {
      guestName: "Tamu Gerbang",
      purpose: "Antar paket",
      visitAt: inHours(0.5),
      vehiclePlate: "B 1234 XYZ",
      identity: "KTP 3201010101800001",
    },
  });
  const approved = await callJson<{ id: string; pass: string }>(`/api/visitor/${created.body.id}`, {
    method: "PUT",
    token,
    body: { status: "disetujui" },
  });
  return approved.body;
}

async function addDevice(token: string, adapter: "generic" | "hikvision" = "generic") {
  const res = await callJson<{ device: DeviceBody; apiKey: string }>("/api/gate-devices", {
    token,
    body: { name: `Gerbang ${adapter}`, adapter },
  });
  expect(res.status).toBe(201);
  return res.body;
}

type WebhookAnswer = { action: string; reason: string; eventId: string };

/**
 * The device's answer, and (`settled`) the wait for what the webhook writes after answering (the event
 * log and last-seen go through `executionCtx.waitUntil`): the handler runs with an ExecutionContext of
 * the test's own, so the test can tell the answer from the work after it.
 */
async function webhookCall(key: string | undefined, body: unknown, env: typeof bindings = bindings) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request("http://api.test/api/gate-hardware/webhook", {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}) },
      body: JSON.stringify(body),
    }),
    env,
    ctx,
  );
  const text = await res.text();
  const answer = {
    status: res.status,
    headers: res.headers,
    body: (text ? JSON.parse(text) : null) as WebhookAnswer,
  };
  return { answer, settled: () => waitOnExecutionContext(ctx) };
}

const webhook = async (key: string | undefined, body: unknown) => {
  const { answer, settled } = await webhookCall(key, body);
  await settled();
  return answer;
};

// A pass for a visit "in half an hour" must be valid today wherever the wall clock stands.
beforeEach(keepToDaytime);

describe("gate devices", () => {
  it("adds a device whose key is shown once and stored only as a hash", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { device, apiKey } = await addDevice(admin.token);
    expect(apiKey).toMatch(/^wgd_[\w-]{43}$/);
    expect(device).toMatchObject({ adapter: "generic", active: true, keyPrefix: apiKey.slice(0, 12) });
    const list = await callJson<{ items: Record<string, unknown>[] }>("/api/gate-devices", {
      token: admin.token,
    });
    expect(list.body.items).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain(apiKey);
  });

  it("is managed by the tenant admin only, within the tenant", async () => {
    const tenant = await createTenant();
    const other = await createTenant();
    const admin = await tenant.member("admin");
    const sek = await tenant.member("sekretaris");
    const otherAdmin = await other.member("admin");
    const { device } = await addDevice(admin.token);
    expectProblem(await callJson("/api/gate-devices", { token: sek.token }), 403, "forbidden_role");
    expectProblem(
      await callJson(`/api/gate-devices/${device.id}/deactivate`, {
        method: "POST",
        token: otherAdmin.token,
      }),
      404,
      "not_found",
    );
    expectProblem(
      await callJson(`/api/gate-devices/${device.id}/events`, { token: otherAdmin.token }),
      404,
      "not_found",
    );
  });

  it("records every change of a device in the community's audit log", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { device } = await addDevice(admin.token);
    for (const step of ["deactivate", "activate"]) {
      await callJson(`/api/gate-devices/${device.id}/${step}`, { method: "POST", token: admin.token });
    }
    await call(`/api/gate-devices/${device.id}`, { method: "DELETE", token: admin.token });
    const audit = await callJson<{ items: { action: string; actorId: string; targetId: string }[] }>(
      "/api/audit?limit=100",
      { token: admin.token },
    );
    const records = audit.body.items.filter((e) => e.targetId === device.id);
    expect(records.map((e) => e.action)).toEqual([
      "gate_device.delete",
      "gate_device.activate",
      "gate_device.deactivate",
      "gate_device.create",
    ]);
    expect(records.every((e) => e.actorId === admin.id)).toBe(true);
  });

  it("validates the device", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    expectProblem(
      await callJson("/api/gate-devices", { token: admin.token, body: { name: "X", adapter: "zkteco" } }),
      400,
      "invalid_input",
    );
  });
});

describe("POST /api/gate-hardware/webhook", () => {
  it("answers 401 without a key, 401 for an unknown key, 403 when deactivated, 401 once deleted", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { device, apiKey } = await addDevice(admin.token);
    const heartbeat = { event: "heartbeat" };
    expectProblem(await webhook(undefined, heartbeat), 401, "missing_device_key");
    expectProblem(await webhook("wgd_not-a-real-key", heartbeat), 401, "invalid_device_key");
    expectProblem(await webhook(admin.token, heartbeat), 401, "invalid_device_key");
    expect((await webhook(apiKey, heartbeat)).status).toBe(200);

    await callJson(`/api/gate-devices/${device.id}/deactivate`, { method: "POST", token: admin.token });
    expectProblem(await webhook(apiKey, heartbeat), 403, "device_inactive");
    await callJson(`/api/gate-devices/${device.id}/activate`, { method: "POST", token: admin.token });
    expect((await webhook(apiKey, heartbeat)).status).toBe(200);

    expect(
      (await call(`/api/gate-devices/${device.id}`, { method: "DELETE", token: admin.token })).status,
    ).toBe(204);
    expectProblem(await webhook(apiKey, heartbeat), 401, "invalid_device_key");
    const list = await callJson<{ items: DeviceBody[] }>("/api/gate-devices", { token: admin.token });
    expect(list.body.items).toEqual([]);
  });

  it("opens for a valid pass, checks the guest in and out, denies reuse, and logs every event", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { device, apiKey } = await addDevice(admin.token);
    const visit = await approvedPass(tenant, admin.token);
    expect(await webhook(apiKey, { event: "qr_scan", qr: visit.pass, direction: "in" })).toMatchObject({
      status: 200,
      body: { action: "open", reason: "checked_in" },
    });
    expect((await webhook(apiKey, { event: "qr_scan", qr: visit.pass, direction: "in" })).body).toMatchObject(
      {
        action: "deny",
        reason: "already_checked_in",
      },
    );
    expect(
      (await webhook(apiKey, { event: "qr_scan", qr: visit.pass, direction: "out" })).body,
    ).toMatchObject({
      action: "open",
      reason: "checked_out",
    });
    expect((await webhook(apiKey, { event: "qr_scan", qr: visit.pass, direction: "in" })).body).toMatchObject(
      {
        action: "deny",
        reason: "pass_used",
      },
    );
    expect((await webhook(apiKey, { event: "qr_scan", qr: "rubbish-rubbish" })).body).toMatchObject({
      action: "deny",
      reason: "invalid_pass",
    });
    await webhook(apiKey, { event: "door_opened" });

    const record = await callJson<{ checkedInAt: string; checkedOutAt: string }>(`/api/visitor/${visit.id}`, {
      token: admin.token,
    });
    expect(record.body.checkedInAt).not.toBeNull();
    expect(record.body.checkedOutAt).not.toBeNull();
    const events = await callJson<{ items: { kind: string; action: string; reason: string }[] }>(
      `/api/gate-devices/${device.id}/events`,
      { token: admin.token },
    );
    expect(events.body.items.map((e) => `${e.kind}:${e.action}:${e.reason}`)).toEqual([
      "door_opened:none:recorded",
      "qr_scan:deny:invalid_pass",
      "qr_scan:deny:pass_used",
      "qr_scan:open:checked_out",
      "qr_scan:deny:already_checked_in",
      "qr_scan:open:checked_in",
    ]);
    const devices = await callJson<{ items: DeviceBody[] }>("/api/gate-devices", { token: admin.token });
    expect(devices.body.items[0]?.lastSeenAt).not.toBeNull();
  });

  it("denies another community's pass at this gate", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const adminA = await a.member("admin");
    const adminB = await b.member("admin");
    const visit = await approvedPass(a, adminA.token);
    const { apiKey } = await addDevice(adminB.token);
    expect((await webhook(apiKey, { event: "qr_scan", qr: visit.pass })).body).toMatchObject({
      action: "deny",
      reason: "foreign_pass",
    });
  });

  it("reads Hikvision ISAPI access-controller events, JSON or multipart", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { apiKey } = await addDevice(admin.token, "hikvision");
    const visit = await approvedPass(tenant, admin.token);
    const alert = (extra: Record<string, unknown>) => ({
      ipAddress: "192.168.1.64",
      portNo: 80,
      protocol: "HTTP",
      dateTime: "2026-11-21T10:00:00+07:00",
      activePostCount: 1,
      eventType: "AccessControllerEvent",
      eventState: "active",
      eventDescription: "Access Controller Event",
      AccessControllerEvent: { deviceName: "Gerbang Utama", majorEventType: 5, ...extra },
    });
    const checkIn = await webhook(apiKey, alert({ subEventType: 1, cardNo: visit.pass, cardReaderNo: 1 }));
    expect(checkIn.body).toMatchObject({ action: "open", reason: "checked_in" });

    const form = new FormData();
    form.append(
      "event_log",
      JSON.stringify(alert({ subEventType: 1, cardNo: visit.pass, attendanceStatus: "checkOut" })),
    );
    const multipart = await callJsonForm(apiKey, form);
    expect(multipart).toMatchObject({ action: "open", reason: "checked_out" });

    expect((await webhook(apiKey, alert({ subEventType: 21 }))).body).toMatchObject({ action: "none" });
    expect(
      (await webhook(apiKey, { eventType: "heartBeat", dateTime: "2026-11-21T10:00:00+07:00" })).status,
    ).toBe(200);
    expectProblem(await webhook(apiKey, alert({ subEventType: 999 })), 400, "unsupported_event");
  });

  it("refuses a generic event it cannot read", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { apiKey } = await addDevice(admin.token);
    expectProblem(await webhook(apiKey, { event: "qr_scan" }), 400, "unsupported_event");
    expectProblem(await webhook(apiKey, { event: "teleport" }), 400, "unsupported_event");
  });

  it("answers 403 tenant_suspended while the community is suspended", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { apiKey } = await addDevice(admin.token);
    await callJson(`/api/platform/tenants/${tenant.id}`, {
      method: "PATCH",
      token: await operatorToken(),
      body: { status: "suspended" },
    });
    expectProblem(await webhook(apiKey, { event: "heartbeat" }), 403, "tenant_suspended");
  });

  it("answers the device and logs the event even when its last-seen time cannot be written", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { device, apiKey } = await addDevice(admin.token);
    const answer = await withTrigger(
      bindings.PLATFORM_DB,
      `fail_last_seen_${tenant.slug.replaceAll("-", "_")}`,
      `BEFORE UPDATE OF last_seen_at ON gate_devices WHEN OLD.id = '${device.id}'
         BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
      () => webhook(apiKey, { event: "heartbeat" }),
    );
    expect(answer.status).toBe(200);
    const events = await callJson<{ items: { id: string }[] }>(`/api/gate-devices/${device.id}/events`, {
      token: admin.token,
    });
    expect(events.body.items.map((e) => e.id)).toEqual([answer.body.eventId]);
    const devices = await callJson<{ items: DeviceBody[] }>("/api/gate-devices", { token: admin.token });
    expect(devices.body.items[0]?.lastSeenAt).toBeNull();
  });

  it("trusts a verified device key for at most 30 s per isolate; its own routes evict it at once", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { device, apiKey } = await addDevice(admin.token);
    const heartbeat = { event: "heartbeat" };
    expect((await webhook(apiKey, heartbeat)).status).toBe(200);
    // Another isolate deletes the device (its route evicts only its own cache): this isolate still
    // knows the key as verified, until the TTL runs out. Only Date is faked; nothing waits on it.
    await bindings.PLATFORM_DB.prepare("UPDATE gate_devices SET deleted_at = ?, active = 0 WHERE id = ?")
      .bind(new Date().toISOString(), device.id)
      .run();
    expect((await webhook(apiKey, heartbeat)).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 30_001);
      expectProblem(await webhook(apiKey, heartbeat), 401, "invalid_device_key");
    } finally {
      vi.useRealTimers();
    }
    // An unknown key is never cached: it is read, and refused, every time.
    expectProblem(await webhook(`${apiKey}x`, heartbeat), 401, "invalid_device_key");
  });

  it("answers a check-in with its event logged, then writes last-seen after the answer, kept to the minute", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { device, apiKey } = await addDevice(admin.token);
    const visit = await approvedPass(tenant, admin.token);
    const { answer, settled } = await webhookCall(apiKey, {
      event: "qr_scan",
      qr: visit.pass,
      direction: "in",
    });
    expect(answer).toMatchObject({ status: 200, body: { action: "open", reason: "checked_in" } });
    await settled();
    const events = await callJson<{ items: { id: string; visitorId: string; reason: string }[] }>(
      `/api/gate-devices/${device.id}/events`,
      { token: admin.token },
    );
    expect(events.body.items).toMatchObject([
      { id: answer.body.eventId, visitorId: visit.id, reason: "checked_in" },
    ]);
    const devices = await callJson<{ items: DeviceBody[] }>("/api/gate-devices", { token: admin.token });
    const seen = devices.body.items[0]?.lastSeenAt;
    expect(seen).not.toBeNull();
    // Last-seen is kept to the minute: a second event right after does not write the device row again.
    await webhook(apiKey, { event: "heartbeat" });
    const again = await callJson<{ items: DeviceBody[] }>("/api/gate-devices", { token: admin.token });
    expect(again.body.items[0]?.lastSeenAt).toBe(seen);
  });

  it("answers a scan in one tenant round trip, its event row included; other events write theirs after the answer", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { device, apiKey } = await addDevice(admin.token);
    const visit = await approvedPass(tenant, admin.token);
    // The first event verifies the key, caches the tenant and writes last-seen; what follows is the steady state.
    await webhook(apiKey, { event: "heartbeat" });
    const slot = `TENANT_DB_${String(tenant.slot).padStart(2, "0")}`;
    const eventsOf = async () =>
      (
        await callJson<{ items: { id: string; action: string; reason: string; visitorId: string | null }[] }>(
          `/api/gate-devices/${device.id}/events`,
          { token: admin.token },
        )
      ).body.items;
    /** `hold` holds back the writes made after the answer (the plain event insert), never the scan's batch. */
    const counted = (hold?: Promise<void>) => {
      const tenantTrips: string[][] = [];
      const platformTrips: string[][] = [];
      const sent: string[][] = [];
      const env = {
        ...bindings,
        PLATFORM_DB: countingD1(bindings.PLATFORM_DB, platformTrips),
        [slot]: countingD1(sentD1(tenantD1(tenant), sent), tenantTrips, (sql) =>
          / VALUES \(/.test(sql) ? hold : undefined,
        ),
      } as typeof bindings;
      return { env, tenantTrips, platformTrips, sent };
    };
    const scan = (direction: string) => ({ event: "qr_scan", qr: visit.pass, direction });
    for (const [direction, expected] of [
      ["in", { action: "open", reason: "checked_in", visitorId: visit.id }],
      ["in", { action: "deny", reason: "already_checked_in", visitorId: null }],
      ["out", { action: "open", reason: "checked_out", visitorId: visit.id }],
      ["out", { action: "deny", reason: "already_checked_out", visitorId: null }],
      ["in", { action: "deny", reason: "pass_used", visitorId: null }],
    ] as const) {
      const { env, tenantTrips, platformTrips, sent } = counted();
      const { answer, settled } = await webhookCall(apiKey, scan(direction), env);
      expect(answer).toMatchObject({
        status: 200,
        body: { action: expected.action, reason: expected.reason },
      });
      // One batch: the event row (its outcome read from the row the UPDATE finds), the UPDATE, the reason.
      expect(tenantTrips).toHaveLength(1);
      expect(tenantTrips[0]?.[0]).toMatch(/^INSERT INTO "gate_events"/);
      expect(tenantTrips[0]?.[1]).toMatch(/^UPDATE "visitors" SET/);
      // And nothing more: the event row carries the slot owner's check (its SELECT's LIMIT), no statement
      // of its own in front (core/tenancy/owner.ts).
      expect(sent).toHaveLength(1);
      expect(sent[0]).toHaveLength(3);
      expect(sent[0]?.[0]).toMatch(/^INSERT INTO "gate_events" .* LIMIT \(SELECT CASE WHEN max\(tenant_id\)/);
      expect((await eventsOf())[0]).toMatchObject({ id: answer.body.eventId, ...expected });
      await settled();
      expect(tenantTrips).toHaveLength(1);
      // Last-seen was written a moment ago: neither the guard nor the log touches the platform database.
      expect(platformTrips).toEqual([]);
    }
    // A heartbeat needs no round trip to be answered: its row is written after the answer (held back here).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { env, tenantTrips } = counted(held);
    const { answer, settled } = await webhookCall(apiKey, { event: "heartbeat" }, env);
    expect(answer).toMatchObject({ status: 200, body: { action: "none", reason: "recorded" } });
    expect((await eventsOf()).map((e) => e.id)).not.toContain(answer.body.eventId);
    release();
    await settled();
    expect(tenantTrips.map((t) => t[0])).toEqual([expect.stringMatching(/^INSERT INTO "gate_events"/)]);
    expect((await eventsOf())[0]).toMatchObject({ id: answer.body.eventId, action: "none" });
  });

  it("writes the rows of events answered while a write is in flight together, each caller waiting for its own", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { device, apiKey } = await addDevice(admin.token);
    await webhook(apiKey, { event: "heartbeat" });
    const slot = `TENANT_DB_${String(tenant.slot).padStart(2, "0")}`;
    const trips: string[][] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let first = true;
    // The first write after the answers is held back; the rows answered meanwhile must wait for it.
    const env = {
      ...bindings,
      [slot]: countingD1(tenantD1(tenant), trips, () => {
        const hold = first ? held : undefined;
        first = false;
        return hold;
      }),
    } as typeof bindings;
    const door = (n: number) => ({ event: "door_opened", at: `2026-11-24T01:0${n}:00.000Z` });
    const calls = [await webhookCall(apiKey, door(0), env)];
    for (let n = 1; n <= 3; n++) {
      calls.push(await webhookCall(apiKey, door(n), env));
    }
    let laterSettled = false;
    const later = Promise.all(calls.slice(1).map((c) => c.settled())).then(() => {
      laterSettled = true;
    });
    const ids = calls.map((c) => c.answer.body.eventId);
    const events = async () =>
      (
        await callJson<{ items: { id: string }[] }>(`/api/gate-devices/${device.id}/events?limit=10`, {
          token: admin.token,
        })
      ).body.items.map((e) => e.id);
    // Nothing is written while the first write is held, and no caller's wait is over.
    expect((await events()).filter((id) => ids.includes(id))).toEqual([]);
    expect(laterSettled).toBe(false);
    release();
    await Promise.all(calls.map((c) => c.settled()));
    await later;
    // Two round trips for four rows: the first alone, then the three that waited, in one batch.
    expect(trips.map((t) => t.length)).toEqual([1, 3]);
    expect(await events()).toEqual(expect.arrayContaining(ids));
  });

  it("still answers the gate when the event log cannot be written, and keeps the event in the error log", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { device, apiKey } = await addDevice(admin.token);
    const visit = await approvedPass(tenant, admin.token);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const answer = await withTrigger(
        tenantD1(tenant),
        `fail_gate_event_${tenant.slug.replaceAll("-", "_")}`,
        `BEFORE INSERT ON gate_events WHEN NEW.device_id = '${device.id}'
           BEGIN SELECT RAISE(ABORT, 'forced failure'); END`,
        () => webhook(apiKey, { event: "qr_scan", qr: visit.pass, direction: "in" }),
      );
      expect(answer).toMatchObject({ status: 200, body: { action: "open", reason: "checked_in" } });
      const lines = errors.mock.calls.map((c) => JSON.parse(String(c[0])) as Record<string, unknown>);
      const lost = lines.find((l) => l.event === "gate_event_unrecorded");
      expect(lost?.row).toMatchObject({ id: answer.body.eventId, deviceId: device.id, reason: "checked_in" });
    } finally {
      errors.mockRestore();
    }
    const record = await callJson<{ checkedInAt: string | null }>(`/api/visitor/${visit.id}`, {
      token: admin.token,
    });
    expect(record.body.checkedInAt).not.toBeNull();
  });

  it("declares the device key, not a user token, as its security in the OpenAPI document", async () => {
    const doc = await callJson<{ paths: Record<string, Record<string, { security?: unknown }>> }>(
      "/openapi.json",
    );
    expect(doc.body.paths["/api/gate-hardware/webhook"]?.post?.security).toEqual([{ gateDeviceKey: [] }]);
  });

  it("answers 403 when the guest book is switched off", async () => {
    const tenant = await createTenant();
    const admin = await tenant.member("admin");
    const { apiKey } = await addDevice(admin.token);
    await callJson(`/api/platform/tenants/${tenant.id}`, {
      method: "PATCH",
      token: await operatorToken(),
      body: { flags: { tamu: false } },
    });
    expectProblem(await webhook(apiKey, { event: "heartbeat" }), 403, "feature_disabled");
  });
});

async function callJsonForm(key: string, form: FormData) {
  const { exports } = await import("cloudflare:workers");
  const res = await exports.default.fetch(
    new Request("http://api.test/api/gate-hardware/webhook", {
      method: "POST",
      headers: { Authorization: `Bearer ${key}` },
      body: form,
    }),
  );
  return res.json();
}
