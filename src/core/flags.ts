/** Per-tenant feature flags, named as the spec names them. */
export const FEATURE_FLAGS = ["pasar", "tamu", "musyawarah", "surat", "warga"] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/** A new tenant starts with every module on; operators switch modules off per tenant. */
export function defaultFlags(): Record<FeatureFlag, boolean> {
  return { pasar: true, tamu: true, musyawarah: true, surat: true, warga: true };
}

export function parseFlags(stored: string | null | undefined): Record<FeatureFlag, boolean> {
  const flags = defaultFlags();
  if (!stored) {
    return flags;
  }
  const raw = JSON.parse(stored) as Record<string, unknown>;
  for (const flag of FEATURE_FLAGS) {
    if (typeof raw[flag] === "boolean") {
      flags[flag] = raw[flag];
    }
  }
  return flags;
}
