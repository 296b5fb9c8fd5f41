import { useEffect, useState } from "preact/hooks";
import { useRoute } from "preact-iso";
import { api } from "../../api/client";
import { money, period } from "../../format";
import { Field, FormError, Select, Submit, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { cx } from "../text";
import { ConflictNotice, currentEtag, DataTable, isConflict } from "../ui";
import { monthOptions, rupiahInput, thisMonth, useDuty } from "./common";
import { fx } from "./text";

interface DuesType {
  id: string;
  name: string;
  amount: number;
  nextAmount: number | null;
  basis: "unit" | "kk";
  startPeriod: string;
  active: boolean;
  exemptUnitIds: string[];
  dueDay: number;
}

const basisLabel = (b: string) => (b === "kk" ? fx("basisKk") : fx("basisUnit"));

/** `/pengurus/keuangan/jenis`: the dues types with their amounts and due days. */
export function DuesTypes() {
  const duty = useDuty();
  const types = useResource(() => api.get<{ items: DuesType[] }>("/api/iuran/jenis"));
  return (
    <section aria-labelledby="fin-types">
      <h1 id="fin-types">{fx("types")}</h1>
      {duty.finance ? (
        <p>
          <a class="button primary" href="/pengurus/keuangan/jenis/baru">
            {fx("newType")}
          </a>
        </p>
      ) : null}
      <Show resource={types}>
        {({ items }) =>
          items.length === 0 ? (
            <p class="empty">{fx("noTypes")}</p>
          ) : (
            <DataTable
              caption={fx("types")}
              rowKey={(t) => t.id}
              rows={items}
              columns={[
                {
                  label: fx("name"),
                  cell: (t) =>
                    duty.finance ? <a href={`/pengurus/keuangan/jenis/${t.id}`}>{t.name}</a> : t.name,
                },
                {
                  label: fx("amount"),
                  numeric: true,
                  cell: (t) => (
                    <div class="fin-cell">
                      {money(t.amount)}
                      {t.nextAmount !== null ? (
                        <div class="muted">{fx("nextAmount", { amount: money(t.nextAmount) })}</div>
                      ) : null}
                    </div>
                  ),
                },
                { label: fx("basis"), cell: (t) => basisLabel(t.basis) },
                { label: fx("startPeriod"), cell: (t) => period(t.startPeriod) },
                { label: fx("dueDay"), numeric: true, cell: (t) => t.dueDay },
                { label: fx("active"), cell: (t) => (t.active ? fx("yes") : fx("no")) },
              ]}
            />
          )
        }
      </Show>
    </section>
  );
}

interface Form {
  name: string;
  amount: string;
  basis: string;
  startPeriod: string;
  dueDay: string;
  active: string;
}

const formOf = (t: DuesType): Form => ({
  name: t.name,
  amount: String(t.nextAmount ?? t.amount),
  basis: t.basis,
  startPeriod: t.startPeriod,
  dueDay: String(t.dueDay),
  active: t.active ? "1" : "0",
});

/**
 * `/pengurus/keuangan/jenis/baru` and `/:id`: a dues type created, or edited with its ETag (If-Match);
 * when another officer saved first, the conflict is shown and the person chooses.
 */
export function DuesTypeForm() {
  const { params } = useRoute();
  const id = params.id === "baru" ? null : (params.id ?? null);
  const path = id ? `/api/iuran/jenis/${id}` : null;
  const [form, setForm] = useState<Form>({
    name: "",
    amount: "",
    basis: "unit",
    startPeriod: thisMonth(),
    dueDay: "10",
    active: "1",
  });
  const [etag, setEtag] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [reloaded, setReloaded] = useState(false);
  const loaded = useResource(async () => {
    if (!path) {
      return null;
    }
    const answer = await api.read<DuesType>(path);
    return answer;
  }, [path]);
  useEffect(() => {
    if (loaded.state === "ready" && loaded.data) {
      setForm(formOf(loaded.data.data));
      setEtag(loaded.data.etag);
    }
  }, [loaded]);
  const set = (key: keyof Form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const body = () => ({
    name: form.name.trim(),
    amount: rupiahInput(form.amount),
    basis: form.basis,
    startPeriod: form.startPeriod,
    dueDay: Number(form.dueDay),
    active: form.active === "1",
  });
  const save = useSubmit(async (key) => {
    if (path) {
      const answer = await api.put<DuesType>(path, body(), etag, { idempotencyKey: key });
      setEtag(answer.etag);
    } else {
      await api.post<DuesType>("/api/iuran/jenis", body(), { idempotencyKey: key });
    }
    setDone(true);
  });
  const mine = useSubmit(async (key) => {
    if (!path) {
      return;
    }
    const answer = await api.put<DuesType>(path, body(), await currentEtag(path), { idempotencyKey: key });
    setEtag(answer.etag);
    setDone(true);
  });
  const months = monthOptions(24, 12);
  const title = id ? fx("editType") : fx("newType");
  const fields = (
    <form
      class="fin-form card"
      onSubmit={(e) => {
        setDone(false);
        setReloaded(false);
        save.submit(e);
      }}
    >
      <div class="fin-wide">
        <Field
          label={fx("name")}
          name="name"
          value={form.name}
          onInput={set("name")}
          required
          error={save.fields.name}
        />
      </div>
      <Field
        label={fx("amount")}
        name="amount"
        inputMode="numeric"
        value={form.amount}
        onInput={set("amount")}
        required
        error={save.fields.amount}
      />
      <Select
        label={fx("basis")}
        name="basis"
        value={form.basis}
        onInput={set("basis")}
        options={[
          { value: "unit", label: fx("basisUnit") },
          { value: "kk", label: fx("basisKk") },
        ]}
        error={save.fields.basis}
      />
      <Select
        label={fx("startPeriod")}
        name="startPeriod"
        value={form.startPeriod}
        onInput={set("startPeriod")}
        options={
          months.some((m) => m.value === form.startPeriod)
            ? months
            : [{ value: form.startPeriod, label: period(form.startPeriod) }, ...months]
        }
        error={save.fields.startPeriod}
      />
      <Field
        label={fx("dueDay")}
        name="dueDay"
        type="number"
        value={form.dueDay}
        onInput={set("dueDay")}
        required
        error={save.fields.dueDay}
      />
      <Select
        label={fx("active")}
        name="active"
        value={form.active}
        onInput={set("active")}
        options={[
          { value: "1", label: fx("yes") },
          { value: "0", label: fx("no") },
        ]}
      />
      {isConflict(save.error) && !done && !reloaded ? (
        <div class="fin-wide">
          <ConflictNotice
            busy={mine.busy}
            onTheirs={() => {
              setReloaded(true);
              if (loaded.state === "ready") {
                loaded.reload();
              }
            }}
            onMine={() => mine.submit()}
          />
        </div>
      ) : (
        <FormError error={isConflict(save.error) ? mine.error : (save.error ?? mine.error)} />
      )}
      {done ? (
        <p class="fin-wide" role="status">
          {cx("saved")} <a href="/pengurus/keuangan/jenis">{fx("back")}</a>
        </p>
      ) : null}
      <div class="actions">
        <Submit busy={save.busy}>{fx("create")}</Submit>
        <a href="/pengurus/keuangan/jenis">{fx("back")}</a>
      </div>
    </form>
  );
  return (
    <section aria-labelledby="fin-type">
      <h1 id="fin-type">{title}</h1>
      {path ? <Show resource={loaded}>{() => fields}</Show> : fields}
    </section>
  );
}
