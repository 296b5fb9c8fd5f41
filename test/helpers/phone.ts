import fc from "fast-check";

/**
 * How people type one Indonesian number stored as `62…` (ADR 0047): with 0 or +62 or 62 in front, in
 * groups split by spaces, dashes or dots, or with the prefix in brackets.
 */
export function phoneSpellings(stored: string): string[] {
  const rest = stored.slice(2);
  const grouped = (sep: string) => `${rest.slice(0, 3)}${sep}${rest.slice(3, 7)}${sep}${rest.slice(7)}`;
  return [
    `0${rest}`,
    `0${grouped("-")}`,
    `+62 ${grouped(" ")}`,
    `+62-${grouped("-")}`,
    `62${rest}`,
    `(0${rest.slice(0, 3)}) ${rest.slice(3)}`,
    ` 0${grouped(".")} `,
  ];
}

/** fast-check: an Indonesian mobile number as stored (`628` and 8 to 11 more digits). */
export const storedMobile = fc
  .tuple(fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^\d{7,10}$/))
  .map(([second, tail]) => `628${second}${tail}`);

/** fast-check: any spelling of a stored number a person might type (prefix, separators, spacing). */
export function typedSpelling(stored: string) {
  const rest = stored.slice(2);
  return fc
    .tuple(
      fc.constantFrom("0", "+62", "62", "+62 ", "(0", "+ 62"),
      fc.array(fc.constantFrom(" ", "-", ".", ""), { minLength: rest.length, maxLength: rest.length }),
      fc.constantFrom("", " ", "  "),
    )
    .map(([prefix, seps, pad]) => {
      const body = [...rest].map((d, i) => `${d}${seps[i]}`).join("");
      const opened = prefix === "(0" ? `(0${body.slice(0, 1)})${body.slice(1)}` : `${prefix}${body}`;
      return `${pad}${opened.replace(/[\s.-]+$/, "")}${pad}`;
    });
}
