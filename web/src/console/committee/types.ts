/** What the members, residents and audit routes answer (src/modules/members, residents, audit schemas). */
export interface Member {
  userId: string;
  name: string;
  email: string | null;
  whatsapp: string | null;
  unitId: string | null;
  unit: { id: string; block: string; number: string } | null;
  personId: string | null;
  roles: string[];
  resident: boolean;
  status: "aktif" | "diundang" | "nonaktif";
  joinedAt: string;
}

export interface InvitationOutcome {
  channel: "email" | "whatsapp" | null;
  sent: boolean;
  reason?: "no_contact" | "delivery_failed";
  hint?: string;
}

export interface PendingInvitation {
  id: string;
  kind: "account" | "join";
  name: string;
  email: string | null;
  whatsapp: string | null;
  roles: string[];
  unitId: string | null;
  channel: "email" | "whatsapp" | null;
  sentBy: { userId: string; name: string } | null;
  expiresAt: string;
  createdAt: string;
}

export interface Application {
  id: string;
  fullName: string;
  email: string | null;
  whatsapp: string;
  block: string;
  houseNumber: string;
  kkNumber: string | null;
  note: string | null;
  status: "menunggu" | "disetujui" | "ditolak";
  reason: string | null;
  decidedBy: string | null;
  decidedAt: string | null;
  userId: string | null;
  createdAt: string;
}

export interface AuditEntry {
  id: string;
  actorId: string | null;
  actorName: string | null;
  actorRole: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  detail: Record<string, unknown> | null;
  createdAt: string;
}
