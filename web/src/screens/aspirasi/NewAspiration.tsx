import { useState } from "preact/hooks";
import { useLocation } from "preact-iso";
import { api } from "../../api/client";
import { t } from "../../i18n";
import { Field, FormError, Submit, TextArea, useSubmit } from "../../ui/forms";
import type { Proposal } from "./types";

/** `/aspirasi/saran`: a suggestion to the staff, by name or anonymously (then no sender is stored at all). */
export function NewSuggestion() {
  const [body, setBody] = useState("");
  const [anonymous, setAnonymous] = useState(false);
  const [sent, setSent] = useState(false);
  const form = useSubmit((key) =>
    api.post("/api/saran", { body: body.trim(), anonymous }, { idempotencyKey: key }),
  );
  const onSubmit = async (event: Event) => {
    if (await form.submit(event)) {
      setSent(true);
      setBody("");
    }
  };
  return (
    <section aria-labelledby="suggestion-title">
      <p>
        <a href="/aspirasi">{t("aspirasi.back")}</a>
      </p>
      <h1 id="suggestion-title">{t("aspirasi.newSuggestion")}</h1>
      {sent && (
        <p class="card" role="status">
          {t("aspirasi.suggestionSent")}
        </p>
      )}
      <form class="card" onSubmit={onSubmit}>
        <TextArea
          label={t("aspirasi.suggestion")}
          name="body"
          value={body}
          onInput={setBody}
          required
          minLength={3}
          maxLength={2000}
          error={form.fields.body}
        />
        <label class="check">
          <input
            type="checkbox"
            checked={anonymous}
            onChange={(e) => setAnonymous((e.currentTarget as HTMLInputElement).checked)}
          />
          {t("aspirasi.anonymous")}
        </label>
        <FormError error={form.error} />
        <Submit busy={form.busy}>{t("aspirasi.send")}</Submit>
      </form>
    </section>
  );
}

/** `/aspirasi/usulan/baru`: a proposal other residents can endorse before the staff decide it. */
export function NewProposal() {
  const { route } = useLocation();
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const [cost, setCost] = useState("");
  const form = useSubmit((key) => {
    const digits = cost.replace(/[^\d]/g, "");
    return api.post<Proposal>(
      "/api/usulan",
      {
        title: title.trim(),
        description: description.trim(),
        ...(digits ? { estimatedCost: Number(digits) } : {}),
      },
      { idempotencyKey: key },
    );
  });
  const onSubmit = async (event: Event) => {
    if (await form.submit(event)) {
      route("/aspirasi");
    }
  };
  return (
    <section aria-labelledby="proposal-title">
      <p>
        <a href="/aspirasi">{t("aspirasi.back")}</a>
      </p>
      <h1 id="proposal-title">{t("aspirasi.newProposal")}</h1>
      <form class="card" onSubmit={onSubmit}>
        <Field
          label={t("aspirasi.proposalTitle")}
          name="title"
          value={title}
          onInput={setTitle}
          required
          minLength={3}
          error={form.fields.title}
        />
        <TextArea
          label={t("aspirasi.description")}
          name="description"
          value={description}
          onInput={setDescription}
          required
          minLength={5}
          maxLength={2000}
          error={form.fields.description}
        />
        <Field
          label={t("aspirasi.estimatedCost")}
          name="estimatedCost"
          inputMode="numeric"
          value={cost}
          onInput={setCost}
          error={form.fields.estimatedCost}
        />
        <FormError error={form.error} />
        <Submit busy={form.busy}>{t("aspirasi.send")}</Submit>
      </form>
    </section>
  );
}
