/**
 * Formula injection (CSV injection): a cell Excel or LibreOffice would run as a formula. Checked on the
 * text as a spreadsheet sees it once it has dropped what leads: the probe of issue 31 passed "\t=…"
 * (and " =…", "\n+…") because the old check looked at the first character before that trimming. So:
 * leading whitespace and control characters are skipped first, then `=`, `@`, or `+`/`-` not followed
 * by a plain number (a phone number "+62812…", an amount "-5000" stay as they are) marks a formula;
 * so does a cell that itself starts with a tab, CR or LF, which some importers treat as a separator.
 * Every export writer asks this one function: CSV puts an apostrophe in front, .xlsx keeps the text and
 * gives the cell the Text format with a quote prefix, so editing it in Excel never makes it a formula.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: leading controls are what a spreadsheet drops
const LEADING_BLANKS = /^[\s\u0000-\u001F\u007F\u200B-\u200D\u2060\uFEFF]+/;
const PLAIN_SIGNED_NUMBER = /^[+-]\d+(\.\d+)?$/;

export function looksLikeFormula(text: string): boolean {
  if (/^[\t\r\n]/.test(text)) {
    return true;
  }
  const lead = text.replace(LEADING_BLANKS, "");
  if (/^[=@]/.test(lead)) {
    return true;
  }
  return /^[+-]/.test(lead) && !PLAIN_SIGNED_NUMBER.test(lead);
}
