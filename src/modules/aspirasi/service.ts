/** What other modules may ask of aspirasi (the assistant reads a resident's own complaints). */
export { countOpenComplaints, listMyComplaints } from "./complaints";
