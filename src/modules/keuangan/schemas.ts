// The finance module's zod schemas, split by area so no file outgrows ~400 lines; routes and verbs
// import them from here.
export * from "./schemas-iuran";
export * from "./schemas-kampanye";
export * from "./schemas-kas";
export * from "./schemas-laporan";
export * from "./schemas-shared";
