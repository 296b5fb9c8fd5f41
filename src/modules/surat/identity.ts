import { DomainError } from "../../core/errors";
import { tanggalIndonesia } from "./dates";
import type { IdentityField, JenisDef } from "./jenis";

/**
 * The subject's identity block: each letter type prints the particulars it declares (jenis.ts), all
 * from the subject's registry person and the community's administrative chain. A particular the
 * registry lacks refuses the request (409 `registry_record_required`), never an empty line.
 */
export interface RegistryPerson {
  name: string;
  nik: string;
  sex: "L" | "P";
  birthPlace: string | null;
  birthDate: string | null;
  religion: string | null;
  occupation: string | null;
  maritalStatus: string | null;
  citizenship: string;
}

/** The chain the address names after the house: RT/RW, kelurahan or desa, kecamatan, kota. */
export interface Chain {
  rt: string | null;
  rw: string | null;
  kelurahan: string;
  villageKind: "kelurahan" | "desa";
  kecamatan: string;
  kota: string;
}

const RELIGIONS: Record<string, string> = {
  islam: "Islam",
  kristen: "Kristen",
  katolik: "Katolik",
  hindu: "Hindu",
  buddha: "Buddha",
  konghucu: "Konghucu",
  kepercayaan: "Kepercayaan terhadap Tuhan Yang Maha Esa",
};
const MARITAL: Record<string, string> = {
  belum_kawin: "Belum kawin",
  kawin: "Kawin",
  cerai_hidup: "Cerai hidup",
  cerai_mati: "Cerai mati",
};
const CITIZENSHIP: Record<string, string> = { WNI: "Indonesia (WNI)", WNA: "Asing (WNA)" };

/** What the secretariat enters on the family card for each particular (kependudukan's field names). */
const REGISTRY_FIELDS: Partial<Record<IdentityField, { field: string; label: string }[]>> = {
  tempatTanggalLahir: [
    { field: "birthPlace", label: "Tempat lahir" },
    { field: "birthDate", label: "Tanggal lahir" },
  ],
  agama: [{ field: "religion", label: "Agama" }],
  pekerjaan: [{ field: "occupation", label: "Pekerjaan" }],
  statusPerkawinan: [{ field: "maritalStatus", label: "Status perkawinan" }],
};

const pad3 = (n: string) => n.padStart(3, "0");

export function rtRwLine(chain: Pick<Chain, "rt" | "rw">): string {
  return [chain.rt ? `RT ${pad3(chain.rt)}` : "", chain.rw ? `RW ${pad3(chain.rw)}` : ""]
    .filter(Boolean)
    .join(" / ");
}

export const villageLine = (chain: Pick<Chain, "kelurahan" | "villageKind">) =>
  `${chain.villageKind === "desa" ? "Desa" : "Kelurahan"} ${chain.kelurahan}`;

export function addressOf(unit: { block: string; number: string } | null, chain: Chain): string {
  return [
    unit ? `Blok ${unit.block} No. ${unit.number}` : "",
    rtRwLine(chain),
    villageLine(chain),
    `Kecamatan ${chain.kecamatan}`,
    chain.kota,
  ]
    .filter(Boolean)
    .join(", ");
}

/** Every particular's printed value ("" where the registry has nothing). */
export function identityValues(
  person: RegistryPerson,
  unit: { block: string; number: string } | null,
  chain: Chain,
): Record<IdentityField, string> {
  const born = [person.birthPlace ?? "", person.birthDate ? tanggalIndonesia(person.birthDate) : ""];
  return {
    nama: person.name,
    nik: person.nik,
    tempatTanggalLahir: born.every(Boolean) ? born.join(", ") : "",
    jenisKelamin: person.sex === "L" ? "Laki-laki" : "Perempuan",
    agama: person.religion ? (RELIGIONS[person.religion] ?? person.religion) : "",
    pekerjaan: person.occupation ?? "",
    statusPerkawinan: person.maritalStatus ? (MARITAL[person.maritalStatus] ?? person.maritalStatus) : "",
    kewarganegaraan: CITIZENSHIP[person.citizenship] ?? person.citizenship,
    alamat: addressOf(unit, chain),
  };
}

/** The registry entries a letter of this type needs and the person lacks. */
export function registryGaps(def: JenisDef, person: RegistryPerson): { field: string; label: string }[] {
  return def.identity.flatMap((name) =>
    (REGISTRY_FIELDS[name] ?? []).filter(
      ({ field }) => !person[field as keyof RegistryPerson]?.toString().trim(),
    ),
  );
}

/** 409 `registry_record_required` when the subject's registry person lacks what the letter prints. */
export function requireRegistryRecord(def: JenisDef, person: RegistryPerson): void {
  const gaps = registryGaps(def, person);
  if (gaps.length) {
    throw new DomainError(
      "conflict",
      "registry_record_required",
      `The registry record of ${person.name} lacks what a ${def.name} prints: ${gaps.map((g) => g.label).join(", ")}. Ask the secretariat to enter it on the family card (Kartu Keluarga), then request the letter again.`,
      { errors: gaps.map((g) => ({ field: g.field, message: `${g.label} is not in the registry` })) },
    );
  }
}
