/**
 * The surat module's public face (docs/adr/0052-a-modules-public-face.md): the verbs its routes, jobs
 * and other modules use. The logic lives in files named for what they do.
 */
export { type IssuedLetterPdf, issuedLetterPdfs } from "./handover";
export { dropLapsedVerifications, keepLetterVerifications } from "./kept";
export { lettersAwaitingQuery, listJenis, listLetters, listMyLetters, loadLetter } from "./letters";
export { cancelLetter, cancelLettersOf, createLetter, resubmitLetter } from "./requests";
