/**
 * The market's verbs, by subject: listings read (`listings.ts`), written by their seller
 * (`listing-writes.ts`) and moderated (`moderation.ts`).
 */

export { createListing, deleteListing, updateListing } from "./listing-writes";
export { countActiveListings, getListing, listListings, listMyListings, whatsappLink } from "./listings";
export { moderateListing } from "./moderation";
