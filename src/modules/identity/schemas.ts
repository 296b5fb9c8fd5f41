import { z } from "zod";
import { Slug } from "../tenants/schemas";

export const LoginInput = z.object({
  email: z.email().max(254),
  password: z.string().min(1).max(200),
  tenant: Slug.optional(),
});
export type LoginInput = z.infer<typeof LoginInput>;

export const TenantRef = z.object({ slug: z.string(), name: z.string(), type: z.enum(["RT", "RW"]) });
export const RoleEnum = z.enum(["warga", "bendahara", "sekretaris", "admin", "super_admin"]);

export const LoginResult = z
  .object({
    accessToken: z.string(),
    refreshToken: z.string(),
    expiresIn: z.number().int(),
    user: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      role: RoleEnum,
      tenant: TenantRef.nullable(),
    }),
  })
  .openapi("LoginResult");

export const Me = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    whatsapp: z.string().nullable(),
    role: RoleEnum,
    tenant: TenantRef.nullable(),
    unitId: z.string().nullable(),
    profileComplete: z.boolean(),
    memberships: z.array(z.object({ tenant: TenantRef, role: RoleEnum })),
  })
  .openapi("Me");
