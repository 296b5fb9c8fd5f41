import { api } from "../../api/client";
import { Select } from "../../ui/forms";
import { type Page, Show, useResource } from "../../ui/states";

interface CardSummary {
  id: string;
  kkNumber: string;
  headName: string;
}
interface CardDetail extends CardSummary {
  members: { id: string; name: string; relationship: string; livingStatus: string }[];
}

export interface PersonOption {
  id: string;
  label: string;
}

/** The people on the family cards of one house (the registry's), to link an account to its person. */
export async function peopleOfUnit(unitId: string): Promise<PersonOption[]> {
  const cards = await api.get<Page<CardSummary>>("/api/kependudukan/kk", { query: { unitId, limit: 20 } });
  const details = await Promise.all(
    cards.items.map((c) => api.get<CardDetail>(`/api/kependudukan/kk/${c.id}`)),
  );
  return details.flatMap((card) =>
    card.members
      .filter((m) => m.livingStatus === "hidup")
      .map((m) => ({ id: m.id, label: `${m.name} (${m.relationship}, KK ${card.headName})` })),
  );
}

/** A choice of a person on the house's cards, or none; loads them when shown. */
export function PersonPicker(props: {
  unitId: string;
  label: string;
  noneLabel: string;
  emptyText: string;
  value: string;
  onInput: (personId: string) => void;
  error?: string;
}) {
  const people = useResource(() => peopleOfUnit(props.unitId), [props.unitId]);
  return (
    <Show resource={people} lines={1}>
      {(list) =>
        list.length === 0 ? (
          <p class="muted">{props.emptyText}</p>
        ) : (
          <Select
            label={props.label}
            name="personId"
            value={props.value}
            onInput={props.onInput}
            error={props.error}
            options={[
              { value: "", label: props.noneLabel },
              ...list.map((p) => ({ value: p.id, label: p.label })),
            ]}
          />
        )
      }
    </Show>
  );
}
