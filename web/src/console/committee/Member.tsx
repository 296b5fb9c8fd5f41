import { useEffect, useRef, useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { type Answer, api } from "../../api/client";
import { date } from "../../format";
import { FormError, Submit, useSubmit } from "../../ui/forms";
import { Show, useResource } from "../../ui/states";
import { Confirm, ConflictNotice, currentEtag, isConflict } from "../ui";
import { DutyChecks } from "./Invite";
import { Duties, houseOf } from "./Members";
import { PersonPicker } from "./PersonPicker";
import { type CommitteeKey, tx } from "./text";
import type { Member } from "./types";

/** `/pengurus/tim/anggota/:userId`: one member: change duties, link to the registry, remove. */
export function MemberDetail({ params }: { params: { userId: string } }) {
  const path = `/api/members/${params.userId}`;
  const member = useResource(() => api.read<Member>(path), [params.userId]);
  return (
    <section aria-labelledby="tim-member-title">
      <p>
        <a href="/pengurus/tim">{tx("back")}</a>
      </p>
      <Show resource={member} lines={6}>
        {(answer) => (
          <MemberEditor
            key={answer.etag}
            answer={answer}
            path={path}
            reload={() => member.state === "ready" && member.reload()}
          />
        )}
      </Show>
    </section>
  );
}

function MemberEditor(props: { answer: Answer<Member>; path: string; reload: () => void }) {
  const { route } = useLocation();
  const [m, setM] = useState(props.answer.data);
  // The version the form was read at: what every write here sends as If-Match.
  const etag = useRef(props.answer.etag);
  const [roles, setRoles] = useState<string[]>(m.roles);
  const [personId, setPersonId] = useState(m.personId ?? "");
  const [saved, setSaved] = useState<string | null>(null);
  const [removing, setRemoving] = useState(false);
  useEffect(() => setSaved(null), [roles, personId]);

  const took = (a: Answer<Member>, message: string) => {
    setM(a.data);
    etag.current = a.etag ?? etag.current;
    setRoles(a.data.roles);
    setPersonId(a.data.personId ?? "");
    setSaved(message);
  };
  const saveRoles = useSubmit(async () => {
    took(await api.put<Member>(`${props.path}/roles`, { roles }, etag.current), tx("dutiesSaved"));
    return true;
  });
  const savePerson = useSubmit(async () => {
    const body = { personId: personId || null };
    took(await api.put<Member>(`${props.path}/person`, body, etag.current), tx("personSaved"));
    return true;
  });
  const remove = useSubmit(async () => {
    await api.del(props.path, etag.current);
    return true;
  });
  /** "Mine" after a conflict: the same edit again, over the version now stored. */
  const overwrite = async (which: typeof saveRoles) => {
    etag.current = await currentEtag(props.path);
    await which.submit();
  };

  return (
    <>
      <h1 id="tim-member-title">{tx("memberTitle", { name: m.name })}</h1>
      <dl class="facts">
        <dt>{tx("duties")}</dt>
        <dd>
          <Duties roles={m.roles} />
        </dd>
        <dt>{tx("contact")}</dt>
        <dd>{[m.email, m.whatsapp].filter(Boolean).join(" · ") || "—"}</dd>
        <dt>{tx("house")}</dt>
        <dd>{houseOf(m)}</dd>
        <dt>{tx("status")}</dt>
        <dd>
          {tx(`status.${m.status}` as CommitteeKey)} · {tx("joined", { date: date(m.joinedAt) })}
        </dd>
        <dt>{tx("personTitle")}</dt>
        <dd>{m.personId ? tx("personLinked") : tx("personNone")}</dd>
      </dl>
      {saved && (
        <p class="notice" role="status">
          {saved}
        </p>
      )}

      <form class="card tim-form" onSubmit={(e) => saveRoles.submit(e)}>
        <h2>{tx("dutiesTitle")}</h2>
        <p class="muted">{tx("dutiesHint")}</p>
        <DutyChecks
          legend={tx("dutiesLegend")}
          value={roles}
          onChange={setRoles}
          error={saveRoles.fields.roles}
        />
        {isConflict(saveRoles.error) ? (
          <ConflictNotice busy={saveRoles.busy} onTheirs={props.reload} onMine={() => overwrite(saveRoles)} />
        ) : (
          <FormError error={saveRoles.error} />
        )}
        <Submit busy={saveRoles.busy}>{tx("dutiesSave")}</Submit>
      </form>

      <form class="card tim-form" onSubmit={(e) => savePerson.submit(e)}>
        <h2>{tx("personTitle")}</h2>
        {m.unitId ? (
          <>
            <p class="muted">{tx("personHint")}</p>
            <PersonPicker
              unitId={m.unitId}
              label={tx("personPick")}
              noneLabel={tx("personNoneOption")}
              emptyText={tx("personNoCards")}
              value={personId}
              onInput={setPersonId}
              error={savePerson.fields.personId}
            />
            {isConflict(savePerson.error) ? (
              <ConflictNotice
                busy={savePerson.busy}
                onTheirs={props.reload}
                onMine={() => overwrite(savePerson)}
              />
            ) : (
              <FormError error={savePerson.error} />
            )}
            <Submit busy={savePerson.busy}>{tx("personSave")}</Submit>
          </>
        ) : (
          <p class="muted">{tx("personNoHouse")}</p>
        )}
      </form>

      <div class="card tim-form tim-danger">
        <h2>{tx("removeTitle")}</h2>
        <p class="muted">{tx("removeHint")}</p>
        <button type="button" class="danger" onClick={() => setRemoving(true)}>
          {tx("removeButton")}
        </button>
      </div>
      <Confirm
        open={removing}
        title={tx("removeConfirm", { name: m.name })}
        confirmLabel={tx("removeYes")}
        danger
        busy={remove.busy}
        error={remove.error}
        onCancel={() => setRemoving(false)}
        onConfirm={async () => {
          if (await remove.submit()) {
            setRemoving(false);
            route("/pengurus/tim");
          }
        }}
      />
    </>
  );
}
