/** One table from the tables of several files (keyed by file), refusing a key that two files define. */
export function joinTables<T>(tables: Record<string, Readonly<Record<string, T>> | undefined>) {
  const joined: Record<string, T> = {};
  const from = new Map<string, string>();
  for (const [file, table] of Object.entries(tables)) {
    for (const [key, value] of Object.entries(table ?? {})) {
      if (from.has(key)) {
        throw new Error(`${key} is in both ${from.get(key)} and ${file}`);
      }
      from.set(key, file);
      joined[key] = value;
    }
  }
  return joined as Readonly<Record<string, T>>;
}
