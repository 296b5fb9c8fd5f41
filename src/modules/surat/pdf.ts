// The renderer lives in core (src/platform/pdf) since finance reports print through it too.
export { browserRenderer, HOW_TO_ENABLE, type PdfRenderer, pdfRendering } from "../../platform/pdf";
