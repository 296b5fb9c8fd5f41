import { useState } from "preact/hooks";
import { api } from "../../api/client";
import { dateTime } from "../../format";
import { useLanguage } from "../../i18n";
import { Field, FormError, Select, Submit, useSubmit } from "../../ui/forms";
import { type Page, Show, ShowPaged, usePaged, useResource } from "../../ui/states";
import { Confirm, DataTable, OnceSecret } from "../ui";
import { gx } from "./text";

/** A gate device as `GET /api/gate-devices` answers it (src/modules/gate/schemas.ts `Device`). */
interface Device {
  id: string;
  name: string;
  adapter: "generic" | "hikvision";
  keyPrefix: string;
  active: boolean;
  lastSeenAt: string | null;
  createdAt: string;
}

interface GateEvent {
  id: string;
  kind: "qr_scan" | "door_opened" | "heartbeat";
  direction: "in" | "out" | null;
  action: "open" | "deny" | "none";
  reason: string;
  occurredAt: string;
}

/** `/pengurus/tamu/perangkat` (admin): the gate devices; a new one's key is shown once, here. */
export function Devices() {
  useLanguage();
  const devices = useResource(() => api.get<Page<Device>>("/api/gate-devices"));
  const [created, setCreated] = useState<{ name: string; apiKey: string } | null>(null);
  const reload = devices.state === "ready" ? devices.reload : () => undefined;
  return (
    <section aria-labelledby="devices-title" class="guests">
      <p>
        <a href="/pengurus/tamu">{gx("backGuests")}</a>
      </p>
      <h1 id="devices-title">{gx("devices")}</h1>
      <AddDevice
        added={(name, apiKey) => {
          setCreated({ name, apiKey });
          reload();
        }}
      />
      {created && <OnceSecret label={gx("keyOf", { name: created.name })} value={created.apiKey} />}
      <Show resource={devices} lines={4}>
        {(page) =>
          page.items.length === 0 ? (
            <p class="empty">{gx("noDevices")}</p>
          ) : (
            <DataTable
              caption={gx("devices")}
              rows={page.items}
              rowKey={(d) => d.id}
              columns={[
                { label: gx("colName"), cell: (d) => d.name },
                { label: gx("colAdapter"), cell: (d) => gx(d.adapter) },
                { label: gx("colKey"), cell: (d) => <code>{d.keyPrefix}…</code> },
                {
                  label: gx("colState"),
                  cell: (d) => (
                    <span class={`badge ${d.active ? "badge-selesai" : "badge-dibatalkan"}`}>
                      {d.active ? gx("active") : gx("inactive")}
                    </span>
                  ),
                },
                { label: gx("colSeen"), cell: (d) => (d.lastSeenAt ? dateTime(d.lastSeenAt) : gx("never")) },
                { label: gx("colActions"), cell: (d) => <DeviceActions device={d} changed={reload} /> },
              ]}
            />
          )
        }
      </Show>
    </section>
  );
}

function AddDevice({ added }: { added: (name: string, apiKey: string) => void }) {
  const [name, setName] = useState("");
  const [adapter, setAdapter] = useState("generic");
  const form = useSubmit(async (key) => {
    const answer = await api.post<{ device: Device; apiKey: string }>(
      "/api/gate-devices",
      { name: name.trim(), adapter },
      { idempotencyKey: key },
    );
    added(answer.device.name, answer.apiKey);
    setName("");
  });
  return (
    <form class="card guests-add" onSubmit={form.submit} aria-labelledby="devices-add">
      <h2 id="devices-add">{gx("addDevice")}</h2>
      <div class="guests-cols">
        <Field
          label={gx("deviceName")}
          name="name"
          value={name}
          onInput={setName}
          required
          minLength={2}
          error={form.fields.name}
        />
        <Select
          label={gx("adapter")}
          name="adapter"
          value={adapter}
          onInput={setAdapter}
          options={[
            { value: "generic", label: gx("generic") },
            { value: "hikvision", label: gx("hikvision") },
          ]}
        />
      </div>
      <FormError error={form.error} />
      <Submit busy={form.busy}>{gx("add")}</Submit>
    </form>
  );
}

function DeviceActions({ device, changed }: { device: Device; changed: () => void }) {
  const [deleting, setDeleting] = useState(false);
  const toggle = useSubmit(async (key) => {
    await api.post(`/api/gate-devices/${device.id}/${device.active ? "deactivate" : "activate"}`, undefined, {
      idempotencyKey: key,
    });
    changed();
  });
  const remove = useSubmit(async () => {
    await api.del(`/api/gate-devices/${device.id}`);
    setDeleting(false);
    changed();
  });
  return (
    <div>
      <div class="actions guests-row-actions">
        <a href={`/pengurus/tamu/perangkat/${device.id}`} aria-label={`${gx("events")}: ${device.name}`}>
          {gx("events")}
        </a>
        <button
          type="button"
          disabled={toggle.busy}
          aria-label={`${device.active ? gx("deactivate") : gx("activate")}: ${device.name}`}
          onClick={() => toggle.submit()}
        >
          {device.active ? gx("deactivate") : gx("activate")}
        </button>
        <button
          type="button"
          class="danger"
          aria-label={`${gx("delete")}: ${device.name}`}
          onClick={() => setDeleting(true)}
        >
          {gx("delete")}
        </button>
      </div>
      <FormError error={toggle.error} />
      <Confirm
        open={deleting}
        title={gx("deleteTitle", { name: device.name })}
        confirmLabel={gx("delete")}
        danger
        busy={remove.busy}
        error={remove.error}
        onCancel={() => setDeleting(false)}
        onConfirm={() => remove.submit()}
      />
    </div>
  );
}

/** `/pengurus/tamu/perangkat/:id`: what the device reported, newest first, paged. */
export function DeviceEvents({ params }: { params: { id: string } }) {
  useLanguage();
  const events = usePaged(
    (cursor) =>
      api.get<Page<GateEvent>>(`/api/gate-devices/${params.id}/events`, { query: { limit: 20, cursor } }),
    [params.id],
  );
  return (
    <section aria-labelledby="events-title" class="guests">
      <p>
        <a href="/pengurus/tamu/perangkat">{gx("backDevices")}</a>
      </p>
      <h1 id="events-title">{gx("eventsOf")}</h1>
      <ShowPaged paged={events} empty={gx("noEvents")} lines={5}>
        {(items) => (
          <DataTable
            caption={gx("eventsOf")}
            rows={items}
            rowKey={(e) => e.id}
            columns={[
              { label: gx("colWhen"), cell: (e) => dateTime(e.occurredAt) },
              { label: gx("colKind"), cell: (e) => gx(e.kind) },
              { label: gx("colDirection"), cell: (e) => (e.direction ? gx(e.direction) : "—") },
              { label: gx("colAction"), cell: (e) => gx(e.action) },
              { label: gx("colReason"), cell: (e) => e.reason },
            ]}
          />
        )}
      </ShowPaged>
    </section>
  );
}
