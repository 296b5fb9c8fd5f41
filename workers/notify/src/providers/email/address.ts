// One reading of an address header's value for every email provider: `addr@domain`, `<addr@domain>`,
// `Name <addr@domain>` or `"Name, with comma" <addr@domain>`. mimetext takes only a mailbox object
// ({ addr, name }) for From, To, Cc and Reply-To, and an HTTP provider builds the header from our string,
// so both start from the parsed mailbox. A line break or a second address is refused: a header value
// that could end the header would let a caller add headers of their own.

export interface ParsedMailbox {
  addr: string;
  name?: string;
}

export class AddressError extends Error {
  override name = "AddressError";
}

// Deliberately plain: a local part and a dotted domain, no spaces, quotes, angle brackets or commas.
const ADDR = /^[^\s@<>",;()\\[\]]+@[^\s@<>",;()\\[\]]+\.[^\s@<>",;()\\[\]]+$/;
// Control characters: CR, LF, NUL and the rest of C0, and DEL.
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

export function parseMailbox(input: string): ParsedMailbox {
  if (CONTROL.test(input)) {
    throw new AddressError("address contains a line break or control character");
  }
  const text = input.trim();
  const angled = /^(.*?)\s*<([^<>]*)>$/.exec(text);
  const addr = (angled ? (angled[2] ?? "") : text).trim();
  if (!ADDR.test(addr)) {
    throw new AddressError(`not one email address: ${JSON.stringify(input.slice(0, 100))}`);
  }
  let name = (angled?.[1] ?? "").trim();
  if (name.length >= 2 && name.startsWith('"') && name.endsWith('"')) {
    name = name.slice(1, -1).replace(/\\(.)/g, "$1");
  }
  if (/[<>]/.test(name)) {
    throw new AddressError("display name contains an angle bracket");
  }
  return name ? { addr, name } : { addr };
}

// RFC 5322 atext plus spaces and dots: anything else in a display name is quoted.
const PLAIN_NAME = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~ .-]+$/;

/** The mailbox as one header value, the form an HTTP provider's `from` and `reply_to` take. */
export function formatMailbox(mailbox: ParsedMailbox): string {
  if (!mailbox.name) {
    return mailbox.addr;
  }
  const name = PLAIN_NAME.test(mailbox.name)
    ? mailbox.name
    : `"${mailbox.name.replace(/["\\]/g, (c) => `\\${c}`)}"`;
  return `${name} <${mailbox.addr}>`;
}

/** A custom header's value must stay on its line; its name is a plain token. */
export function checkHeader(name: string, value: string): void {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(name)) {
    throw new AddressError(`invalid header name: ${JSON.stringify(name.slice(0, 64))}`);
  }
  if (CONTROL.test(value.replaceAll("\t", " "))) {
    throw new AddressError(`header ${name} contains a line break or control character`);
  }
}
