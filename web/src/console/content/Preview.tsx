import { useSession } from "../../session";
import { tx } from "./text";

/**
 * The plain excerpt the API sends in a push and a WhatsApp message: the same rule as the server's
 * `plainExcerpt` (src/modules/konten/markdown.ts, which carries the Markdown renderer and so is not
 * imported here): images dropped, links to their text, Markdown marks removed, spaces folded.
 */
export function plainExcerpt(source: string, max = 180): string {
  const text = source
    .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#>*_`~]+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

/**
 * What residents will get from an announcement, as the API composes it (src/modules/konten/pengumuman.ts
 * `messageOf`): the push's title and excerpt, the WhatsApp text, and the email's subject and text.
 */
export function AnnouncementPreview(props: {
  title: string;
  body: string;
  urgent: boolean;
  whatsapp: boolean;
  email: boolean;
}) {
  const session = useSession();
  const community = session.status === "signedIn" ? (session.user.tenant?.name ?? "") : "";
  const label = props.urgent ? "[PENTING] " : "";
  const title = props.title.trim();
  const body = props.body.trim();
  return (
    <section class="card konten-preview" aria-labelledby="konten-preview-title">
      <h2 id="konten-preview-title">{tx("preview")}</h2>
      {!title && !body ? (
        <p class="muted">{tx("previewEmpty")}</p>
      ) : (
        <>
          <h3>{tx("previewPush")}</h3>
          <div class="konten-push">
            <strong>{`${label}${title}`}</strong>
            <span>{plainExcerpt(body)}</span>
          </div>
          <h3>{tx("previewWhatsapp")}</h3>
          {props.whatsapp ? (
            <pre class="konten-wa">{`*${label}${title}*\n${community}\n\n${plainExcerpt(body, 3500)}`}</pre>
          ) : (
            <p class="muted">{tx("previewOff")}</p>
          )}
          <h3>{tx("previewEmail")}</h3>
          {props.email ? (
            <div class="konten-mail">
              <p>
                <strong>{tx("previewSubject")}:</strong> {`[${community}] ${label}${title}`}
              </p>
              <pre>{`${title}\n\n${body}`}</pre>
            </div>
          ) : (
            <p class="muted">{tx("previewOff")}</p>
          )}
        </>
      )}
    </section>
  );
}
