import { createTenant, type Member, type TestTenant } from "../../helpers/harness";
import { type Household, household } from "../surat/helpers";

/** A community for the finance tests: a household (admin, sekretaris, a unit) and a bendahara. */
export interface Community {
  tenant: TestTenant;
  home: Household;
  bendahara: Member;
  admin: Member;
  sek: Member;
}

export async function community(): Promise<Community> {
  const tenant = await createTenant();
  const home = await household(tenant);
  return { tenant, home, bendahara: await tenant.member("bendahara"), admin: home.admin, sek: home.sek };
}
