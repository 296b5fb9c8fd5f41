// The finance module's zod schemas, split by area so no file outgrows ~400 lines; routes and verbs
// import them from here.
export * from "./iuran/schemas";
export * from "./kampanye/schemas";
export * from "./kas/schemas";
export * from "./laporan/schemas";
export * from "./schemas-shared";
