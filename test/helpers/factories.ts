import type { TenantRole } from "../../src/core/context";
import type { HttpMethod } from "../../src/core/http/access";
import { fakeGateways } from "../modules/billing/gateway";
import { CLEAN_PNG } from "../modules/galeri-pasar/images";
import { readyExport } from "../modules/platform-ops/helpers";
import { PNG, upload } from "../modules/support/helpers";
import { finishedLetter, type Household, household, sampleFields } from "../modules/surat/helpers";
import { callJson, createTenant, type Member, operatorToken, type TestTenant, unique } from "./harness";
import { queuedMessages } from "./notify";

/**
 * One real object per kind, made through the API in tenant A, for the isolation walk
 * (test/core/isolation-walk.test.ts). Keyed by route path: every path with a `:param` needs an entry,
 * and a path without one fails the walk, so a new module is walked the day it lands.
 */

export interface Side {
  tenant: TestTenant;
  as: Record<TenantRole, Member>;
}

export interface World {
  /** Where the objects are made; its resident lives in a registered household with a complete profile. */
  a: Side & { household: Household; otherWarga: Member };
  /** The other tenant, whose members must never reach A's objects. */
  b: Side;
  operator: string;
  /** Makes an object once per file: the routes of one kind share it. */
  once<T>(kind: string, make: () => Promise<T>): Promise<T>;
}

export interface TenantObject {
  params: Record<string, string>;
  /** Bodies that pass validation, so a write reaches the lookup and its 404 rather than a 400. */
  body?: Partial<Record<HttpMethod, unknown>>;
  /** Who made it in A, and so may read it back (defaults to the first role the route allows). */
  ownerRole?: TenantRole;
  /** A's own GET answer when it is not 200 (a letter's PDF before it is finished is 409). */
  ownGetStatus?: number;
  /** One resident's own object: another resident of the same tenant gets 404 too. */
  residentOwned?: boolean;
}

export interface PublicObject {
  /** The real values: they open the object. */
  params: Record<string, string>;
  /** Values that must not open it (another ticket's token, an unknown code): 404. */
  foreign: Record<string, string>;
  body?: Partial<Record<HttpMethod, unknown>>;
  ownGetStatus?: number;
}

export type Factory =
  /** A tenant object (also for `user` routes serving one tenant's files): B's members get 404. */
  | { kind: "tenant"; make(world: World): Promise<TenantObject> }
  /** Operator routes take any tenant's ids by design: a tenant admin gets 403, the operator no 404. */
  | { kind: "platform"; make(world: World): Promise<TenantObject> }
  /** No login: the path's own secret is the credential, so another secret must not open the object. */
  | { kind: "public"; make(world: World): Promise<PublicObject> }
  /**
   * The parameter names no object; says why, so the exemption is a decision on record. Without `probe`
   * it names an identity provider (an unconfigured one is 404); with it, the walk calls the route with
   * these params and no sign-in and expects `status`.
   */
  | { kind: "exempt"; why: string; probe?: { params: Record<string, string>; status: number } };

async function made<T>(res: Promise<{ status: number; body: T }>, what: string, status = 201): Promise<T> {
  const answer = await res;
  if (answer.status !== status) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body;
}

async function side(tenant: TestTenant, known: Partial<Record<TenantRole, Member>> = {}): Promise<Side> {
  return {
    tenant,
    as: {
      warga: known.warga ?? (await tenant.member("warga")),
      bendahara: known.bendahara ?? (await tenant.member("bendahara")),
      sekretaris: known.sekretaris ?? (await tenant.member("sekretaris")),
      admin: known.admin ?? (await tenant.member("admin")),
      satpam: known.satpam ?? (await tenant.member("satpam")),
    },
  };
}

export async function createWorld(): Promise<World> {
  const [tenantA, tenantB] = [await createTenant(), await createTenant()];
  const home = await household(tenantA);
  const a = await side(tenantA, { warga: home.warga, sekretaris: home.sek, admin: home.admin });
  const b = await side(tenantB);
  const objects = new Map<string, Promise<unknown>>();
  return {
    a: { ...a, household: home, otherWarga: await tenantA.member("warga") },
    b,
    operator: await operatorToken(),
    once<T>(kind: string, make: () => Promise<T>) {
      let object = objects.get(kind);
      if (!object) {
        object = make();
        objects.set(kind, object);
      }
      return object as Promise<T>;
    },
  };
}

const png = (name = "bukti.png") => {
  const form = new FormData();
  form.set("file", new File([PNG], name, { type: "image/png" }));
  return form;
};

const lastSegment = (url: string) => new URL(url).pathname.split("/").at(-1) ?? "";

/** A random token shaped like a reply token, opening nothing. */
const unknownToken = () =>
  btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

// --- objects of tenant A ------------------------------------------------------------------------

const complaint = (w: World) =>
  w.once("complaint", () =>
    made(
      callJson<{ id: string }>("/api/pengaduan", {
        token: w.a.as.warga.token,
        body: { title: "Got mampet", description: "Got depan blok C meluap", category: "kebersihan" },
      }),
      "complaint",
    ),
  );

const suggestion = (w: World) =>
  w.once("suggestion", () =>
    made(
      callJson<{ id: string }>("/api/saran", {
        token: w.a.as.warga.token,
        body: { body: "Jadwal ronda diumumkan di grup" },
      }),
      "suggestion",
    ),
  );

const proposal = (w: World) =>
  w.once("proposal", () =>
    made(
      callJson<{ id: string }>("/api/usulan", {
        token: w.a.as.warga.token,
        body: { title: "Lampu taman", description: "Pasang lampu di taman bermain" },
      }),
      "proposal",
    ),
  );

const device = (w: World) =>
  w.once("device", () =>
    made(
      callJson<{ device: { id: string } }>("/api/gate-devices", {
        token: w.a.as.admin.token,
        body: { name: "Gerbang utama", adapter: "generic" },
      }),
      "device",
    ),
  );

const poll = (w: World) =>
  w.once("poll", () =>
    made(
      callJson<{ id: string; options: { id: string }[] }>("/api/musyawarah", {
        token: w.a.as.sekretaris.token,
        body: {
          title: "Jadwal kerja bakti",
          options: ["Sabtu", "Minggu"],
          status: "aktif",
          startsAt: new Date(Date.now() - 60_000).toISOString(),
          endsAt: new Date(Date.now() + 3_600_000).toISOString(),
        },
      }),
      "poll",
    ),
  );

const application = (w: World) =>
  w.once("application", async () => {
    const whatsapp = `0813${String(Date.now()).slice(-8)}`;
    await made(
      callJson(`/api/public/tenants/${w.a.tenant.slug}/applications`, {
        body: { fullName: "Pelamar Uji", whatsapp, block: "D", houseNumber: "9" },
      }),
      "application",
      202,
    );
    const list = await made(
      callJson<{ items: { id: string; whatsapp: string }[] }>("/api/applications?status=menunggu", {
        token: w.a.as.sekretaris.token,
      }),
      "application list",
      200,
    );
    const found = list.items.find((item) => item.whatsapp === `62${whatsapp.slice(1)}`);
    if (!found) {
      throw new Error("the application is not in A's list");
    }
    return found;
  });

/**
 * A ticket, with its reply token taken from the submitter's confirmation email ([TKT:token] in the
 * subject): where the token travels, and the only place once the API stops showing it.
 */
async function openTicket(admin: Member, body: Record<string, unknown>) {
  const created = await made(
    callJson<{ id: string; number: number }>("/api/support-tickets", {
      token: admin.token,
      body: { category: "teknis", ...body },
    }),
    "ticket",
  );
  const sent = await queuedMessages({ recipient: admin.email, template: "SUPPORT_TICKET_CREATED" });
  const subject = sent.find((m) => m.subject?.includes(`#${created.number}`))?.subject ?? "";
  const replyToken = /\[TKT:([^\]]+)\]/.exec(subject)?.[1];
  if (!replyToken) {
    throw new Error(`no [TKT:…] confirmation for ticket #${created.number}`);
  }
  return { id: created.id, reply_token: replyToken };
}

/** A's ticket, with an evidence image uploaded by A's admin and a reply image uploaded by its token. */
const ticket = (w: World) =>
  w.once("ticket", async () => {
    const evidence = await upload("/api/uploads/resident-image?kind=support-ticket", {
      token: w.a.as.admin.token,
      bytes: PNG,
      name: "bukti.png",
      type: "image/png",
    });
    if (evidence.status !== 201) {
      throw new Error(`evidence upload: ${evidence.status} ${JSON.stringify(evidence.body)}`);
    }
    const url = String(evidence.body.url);
    const created = await openTicket(w.a.as.admin, {
      title: "Ekspor gagal",
      detail: "Tombol diam saja",
      attachment_url: url,
    });
    const reply = await upload(`/api/public/support-tickets/${created.reply_token}/uploads`, {
      bytes: PNG,
      name: "balasan.png",
      type: "image/png",
    });
    if (reply.status !== 201) {
      throw new Error(`public upload: ${reply.status} ${JSON.stringify(reply.body)}`);
    }
    return {
      ...created,
      evidenceFileId: lastSegment(url),
      publicFileId: lastSegment(String(reply.body.url)),
    };
  });

/** Another tenant's ticket: its token must not open A's files. */
const ticketOfB = (w: World) =>
  w.once("ticket of B", () => openTicket(w.b.as.admin, { title: "Tiket B", detail: "Milik tenant lain" }));

const letter = (w: World) =>
  w.once("letter", () =>
    made(
      callJson<{ id: string }>("/api/surat", {
        token: w.a.as.warga.token,
        body: {
          jenis: "domisili",
          onBehalfOf: "self",
          keperluan: "Melamar pekerjaan",
          fields: sampleFields("domisili"),
        },
      }),
      "letter",
    ),
  );

const visitor = (w: World) =>
  w.once("visitor", async () => {
    const created = await made(
      callJson<{ id: string }>("/api/visitor", {
        token: w.a.as.warga.token,
        body: {
          guestName: "Andi Wijaya",
          purpose: "Silaturahmi",
          visitAt: new Date(Date.now() + 2 * 3_600_000).toISOString(),
        },
      }),
      "visitor",
    );
    // Approved, so that its QR exists for the owner to read back.
    await made(
      callJson(`/api/visitor/${created.id}`, {
        method: "PUT",
        token: w.a.as.sekretaris.token,
        body: { status: "disetujui" },
      }),
      "visitor approval",
      200,
    );
    return created;
  });

// --- finance (keuangan) --------------------------------------------------------------------------

const duesType = (w: World) =>
  w.once("dues type", () =>
    made(
      callJson<{ id: string }>("/api/iuran/jenis", {
        token: w.a.as.bendahara.token,
        body: { name: "Iuran kebersihan", amount: 25_000, basis: "unit", startPeriod: "2026-01" },
      }),
      "dues type",
    ),
  );

const duesBill = (w: World) =>
  w.once("dues bill", async () => {
    await duesType(w);
    await made(
      callJson("/api/iuran/tagihan/generate", { token: w.a.as.bendahara.token, body: { period: "2026-02" } }),
      "dues generation",
      200,
    );
    const bills = await made(
      callJson<{ items: { id: string }[] }>(
        `/api/iuran/tagihan?period=2026-02&unitId=${w.a.household.unitId}`,
        {
          token: w.a.as.bendahara.token,
        },
      ),
      "bill list",
      200,
    );
    const bill = bills.items[0];
    if (!bill) {
      throw new Error("no bill for A's household");
    }
    return bill;
  });

const duesPayment = (w: World) =>
  w.once("dues payment", async () =>
    made(
      callJson<{ id: string }>(`/api/iuran/tagihan/${(await duesBill(w)).id}/pembayaran`, {
        token: w.a.as.bendahara.token,
        body: { amount: 5_000, method: "transfer", paidAt: "2026-02-04T03:00:00.000Z" },
      }),
      "dues payment",
    ),
  );

const cashEntry = (w: World) =>
  w.once("cash entry", () =>
    made(
      callJson<{ id: string }>("/api/kas", {
        token: w.a.as.bendahara.token,
        body: {
          kind: "masuk",
          category: "Sumbangan",
          amount: 100_000,
          date: "2026-01-15",
          note: "Sumbangan warga",
        },
      }),
      "cash entry",
    ),
  );

const expense = (w: World) =>
  w.once("expense", () =>
    made(
      callJson<{ id: string }>("/api/pengeluaran", {
        token: w.a.as.bendahara.token,
        body: {
          category: "Keamanan",
          amount: 2_000_000,
          date: "2026-01-10",
          description: "Gaji satpam Januari",
        },
      }),
      "expense",
    ),
  );

const campaign = (w: World) =>
  w.once("campaign", () =>
    made(
      callJson<{ id: string }>("/api/kampanye", {
        token: w.a.as.bendahara.token,
        body: {
          title: "Renovasi pos ronda",
          description: "Atap pos ronda bocor",
          target: 5_000_000,
          deadline: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
        },
      }),
      "campaign",
    ),
  );

const pledge = (w: World) =>
  w.once("pledge", async () => {
    const c = await campaign(w);
    const d = await made(
      callJson<{ id: string }>(`/api/kampanye/${c.id}/donasi`, {
        token: w.a.as.warga.token,
        body: { amount: 50_000 },
      }),
      "pledge",
    );
    return { campaignId: c.id, donationId: d.id };
  });

const transparentA = (w: World) =>
  w.once("transparency", () =>
    made(
      callJson("/api/keuangan/pengaturan", {
        method: "PUT",
        token: w.a.as.admin.token,
        body: { transparansi: true },
      }),
      "transparency on",
      200,
    ),
  );

const letterRoute =
  (post?: unknown) =>
  async (w: World): Promise<TenantObject> => ({
    params: { id: (await letter(w)).id },
    body: { put: { status: "diproses" }, post },
    ownerRole: "warga",
    residentOwned: true,
  });

// Content (issue 16): one published news item, announcement and event, and a registered push token.
const beritaItem = (w: World) =>
  w.once("berita", () =>
    made(
      callJson<{ id: string }>("/api/berita", {
        token: w.a.as.sekretaris.token,
        body: { title: "Kerja bakti bulanan", body: "Minggu pagi di balai warga.", status: "terbit" },
      }),
      "berita",
    ),
  );

const pengumumanItem = (w: World) =>
  w.once("pengumuman", () =>
    made(
      callJson<{ id: string }>("/api/pengumuman", {
        token: w.a.as.sekretaris.token,
        body: { title: "Pemadaman air", body: "Air PAM mati Sabtu pukul 09.00–12.00." },
      }),
      "pengumuman",
    ),
  );

const agendaItem = (w: World) =>
  w.once("agenda", () =>
    made(
      callJson<{ id: string }>("/api/agenda", {
        token: w.a.as.sekretaris.token,
        body: {
          title: "Rapat RT",
          place: "Balai warga",
          start: "2030-01-05T19:30:00+07:00",
          end: "2030-01-05T21:00:00+07:00",
        },
      }),
      "agenda",
    ),
  );

const pushToken = (w: World) =>
  w.once("push token", async () => {
    const token = `fcm-walk-${unique("t")}`;
    await made(
      callJson("/api/user/push-tokens", { token: w.a.as.warga.token, body: { token, platform: "android" } }),
      "push token",
      200,
    );
    return token;
  });

// Tenant file store, gallery and marketplace (issue 16).
const archive = (w: World) => w.once("archive", () => readyExport(w.a.as.admin.token));

const storedFile = (w: World) =>
  w.once("stored file", () => {
    return made(
      callJson<{ id: string }>("/api/files", { token: w.a.as.warga.token, body: photoForm("pasar") }),
      "file",
    );
  });

const photoForm = (purpose?: string) => {
  const form = new FormData();
  form.set("file", new File([CLEAN_PNG], "foto.png", { type: "image/png" }));
  if (purpose) {
    form.set("purpose", purpose);
  }
  return form;
};

const album = (w: World) =>
  w.once("album", async () => {
    const created = await made(
      callJson<{ id: string }>("/api/galeri", {
        token: w.a.as.sekretaris.token,
        body: { title: "Kerja bakti Agustus", eventDate: "2026-08-16" },
      }),
      "album",
    );
    const photo = await made(
      callJson<{ id: string }>(`/api/galeri/${created.id}/foto`, {
        token: w.a.as.sekretaris.token,
        body: photoForm(),
      }),
      "gallery photo",
    );
    return { id: created.id, photoId: photo.id };
  });

const listing = (w: World) =>
  w.once("listing", () =>
    made(
      callJson<{ id: string }>("/api/pasar/listings", {
        token: w.a.as.warga.token,
        body: {
          title: "Nasi uduk Bu Sri",
          description: "Setiap pagi",
          price: 12000,
          category: "makanan",
          condition: "baru",
        },
      }),
      "listing",
    ),
  );

export const FACTORIES: Readonly<Record<string, Factory>> = {
  "/api/pengaduan/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await complaint(w)).id },
      body: { put: { status: "diproses", response: "Sedang ditangani" } },
      ownerRole: "warga",
      residentOwned: true,
    }),
  },
  "/api/saran/:id/read": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await suggestion(w)).id } }),
  },
  "/api/usulan/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await proposal(w)).id },
      body: { put: { status: "diterima", note: "Disetujui rapat" } },
    }),
  },
  "/api/usulan/:id/dukung": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await proposal(w)).id } }),
  },
  "/api/gate-devices/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await device(w)).device.id } }),
  },
  "/api/gate-devices/:id/deactivate": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await device(w)).device.id } }),
  },
  "/api/gate-devices/:id/activate": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await device(w)).device.id } }),
  },
  "/api/gate-devices/:id/events": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await device(w)).device.id } }),
  },
  "/api/kependudukan/units/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: w.a.household.unitId }, body: { put: { occupancy: "pemilik" } } }),
  },
  "/api/kependudukan/kk/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: w.a.household.kkId }, body: { put: { notes: "Catatan RT" } } }),
  },
  "/api/kependudukan/kk/:id/members": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: w.a.household.kkId },
      body: {
        post: {
          name: "Dewi Santoso",
          nik: "3201014505159999",
          relationship: "anak",
          sex: "P",
          birthDate: "2015-05-05",
          birthPlace: "Bandung",
        },
      },
    }),
  },
  // Issue 13: the rest of the registry.
  "/api/kependudukan/kk/:id/members/:memberId": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: w.a.household.kkId, memberId: w.a.household.childMemberId },
      body: { put: { occupation: "Pelajar" } },
    }),
  },
  "/api/kependudukan/kk/:id/vehicles": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: w.a.household.kkId },
      body: { post: { plate: "D 4321 WLK", kind: "motor" } },
    }),
  },
  "/api/kependudukan/kk/:id/vehicles/:vehicleId": {
    kind: "tenant",
    make: async (w) => {
      const vehicle = await w.once("registry vehicle", () =>
        made(
          callJson<{ id: string }>(`/api/kependudukan/kk/${w.a.household.kkId}/vehicles`, {
            token: w.a.household.sek.token,
            body: { plate: "D 1234 ABC", kind: "mobil", brand: "Toyota" },
          }),
          "registry vehicle",
        ),
      );
      return {
        params: { id: w.a.household.kkId, vehicleId: vehicle.id },
        body: { put: { colour: "Merah" } },
      };
    },
  },
  "/api/kependudukan/corrections/:id": {
    kind: "tenant",
    make: async (w) => {
      const correction = await w.once("registry correction", () =>
        made(
          callJson<{ id: string }>("/api/kependudukan/household/corrections", {
            token: w.a.household.warga.token,
            body: { memberId: w.a.household.childMemberId, field: "birthPlace", value: "Bogor" },
          }),
          "registry correction",
        ),
      );
      return { params: { id: correction.id }, body: { put: { status: "ditolak", reason: "Sudah benar" } } };
    },
  },
  "/api/musyawarah/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await poll(w)).id }, body: { put: { status: "ditutup" } } }),
  },
  "/api/musyawarah/:id/vote": {
    kind: "tenant",
    make: async (w) => {
      const p = await poll(w);
      return { params: { id: p.id }, body: { post: { optionIds: [p.options[0]?.id] } } };
    },
  },
  "/api/musyawarah/:id/votes": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await poll(w)).id } }),
  },
  "/api/applications/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await application(w)).id },
      body: { put: { status: "ditolak", reason: "Data tidak lengkap" } },
    }),
  },
  "/api/residents/:id/credentials/reset": {
    kind: "tenant",
    make: async (w) => ({ params: { id: w.a.as.warga.id } }),
  },
  "/api/support-tickets/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await ticket(w)).id } }),
  },
  "/api/support-tickets/:id/messages": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await ticket(w)).id }, body: { post: { message: "Ada kabar?" } } }),
  },
  "/api/support-files/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await ticket(w)).evidenceFileId }, ownerRole: "admin" }),
  },
  "/api/surat/:id": { kind: "tenant", make: letterRoute() },
  "/api/surat/:id/resubmit": { kind: "tenant", make: letterRoute({ keperluan: "Keperluan lain" }) },
  "/api/surat/:id/cancel": { kind: "tenant", make: letterRoute({ reason: "Tidak jadi" }) },
  // Rendering needs a browser; the owner's 409 letter_not_ready shows the lookup found the letter.
  "/api/surat/:id/pdf": {
    kind: "tenant",
    make: async (w) => ({ ...(await letterRoute()(w)), ownGetStatus: 409 }),
  },
  "/api/visitor/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await visitor(w)).id },
      body: { put: { status: "ditolak" } },
      ownerRole: "warga",
      residentOwned: true,
    }),
  },
  "/api/visitor/:id/qr": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await visitor(w)).id }, ownerRole: "warga", residentOwned: true }),
  },

  // --- operator routes -----------------------------------------------------------------------------
  // A tenant of its own for each route of the path: the DELETE closes it (A must stay open for the walk).
  "/api/platform/tenants/:id": {
    kind: "platform",
    make: async () => {
      const tenant = await createTenant();
      return {
        params: { id: tenant.id },
        body: { patch: { name: "RT Uji" }, delete: { confirmSlug: tenant.slug } },
      };
    },
  },
  "/api/platform/tenants/:id/admin-invitations": {
    kind: "platform",
    make: async (w) => ({
      params: { id: w.a.tenant.id },
      body: { post: { name: "Wakil Ketua", email: `${unique("wakil")}@warga.test` } },
    }),
  },
  "/api/platform/tenants/:id/invoices": {
    kind: "platform",
    make: async (w) => {
      // Issuing makes a real checkout: answer Midtrans at the fetch boundary (other hosts pass through).
      fakeGateways({ passThrough: true });
      return { params: { id: w.a.tenant.id }, body: { post: { plan: "dasar", months: 1 } } };
    },
  },
  "/api/platform/tenants/:id/invoices/:invoiceId/void": {
    kind: "platform",
    make: async (w) => {
      fakeGateways({ passThrough: true });
      const invoice = await made(
        callJson<{ id: string }>(`/api/platform/tenants/${w.a.tenant.id}/invoices`, {
          token: w.operator,
          body: { plan: "dasar", months: 1 },
        }),
        "operator invoice",
      );
      return {
        params: { id: w.a.tenant.id, invoiceId: invoice.id },
        body: { post: { reason: "Salah paket, diganti tagihan baru" } },
      };
    },
  },
  "/api/platform/tenants/:id/erasures": {
    kind: "platform",
    make: async (w) => ({
      params: { id: w.a.tenant.id },
      body: { post: { userId: "01NOSUCHUSER0000000000000A" } },
    }),
  },
  "/api/platform/support-tickets/:id": {
    kind: "platform",
    make: async (w) => ({ params: { id: (await ticket(w)).id }, body: { patch: { status: "diproses" } } }),
  },

  // --- login-free routes ----------------------------------------------------------------------------
  "/api/public/support-tickets/:reply_token": {
    kind: "public",
    make: async (w) => ({
      params: { reply_token: (await ticket(w)).reply_token },
      foreign: { reply_token: unknownToken() },
    }),
  },
  "/api/public/support-tickets/:reply_token/messages": {
    kind: "public",
    make: async (w) => ({
      params: { reply_token: (await ticket(w)).reply_token },
      foreign: { reply_token: unknownToken() },
      body: { post: { message: "Masih belum bisa" } },
    }),
  },
  "/api/public/support-tickets/:reply_token/uploads": {
    kind: "public",
    make: async (w) => ({
      params: { reply_token: (await ticket(w)).reply_token },
      foreign: { reply_token: unknownToken() },
      body: { post: png() },
    }),
  },
  "/api/public/support-tickets/:reply_token/files/:id": {
    kind: "public",
    make: async (w) => {
      const own = await ticket(w);
      return {
        params: { reply_token: own.reply_token, id: own.publicFileId },
        foreign: { reply_token: (await ticketOfB(w)).reply_token, id: own.publicFileId },
      };
    },
  },
  "/support/reply/:reply_token": {
    kind: "public",
    make: async (w) => {
      const form = new FormData();
      form.set("message", "Balasan dari halaman");
      return {
        params: { reply_token: (await ticket(w)).reply_token },
        foreign: { reply_token: unknownToken() },
        body: { post: form },
      };
    },
  },
  "/api/public/tenants/:slug/applications": {
    kind: "public",
    make: async (w) => ({
      params: { slug: w.a.tenant.slug },
      foreign: { slug: unique("rt-tidak-ada") },
      body: { post: { fullName: "Pelamar Uji", whatsapp: "081399990000", block: "E", houseNumber: "1" } },
    }),
  },
  "/verify/surat/:code": {
    kind: "public",
    make: async (w) => {
      const done = await w.once("finished letter", () => finishedLetter(w.a.household, "001/DOM/2026"));
      return {
        params: { code: done.verificationCode ?? "" },
        foreign: { code: unknownToken().slice(0, 20) },
      };
    },
  },
  "/api/iuran/jenis/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await duesType(w)).id },
      body: {
        put: {
          name: "Iuran kebersihan",
          amount: 30_000,
          basis: "unit",
          startPeriod: "2026-01",
          active: true,
        },
      },
    }),
  },
  "/api/iuran/tagihan/:id/pembayaran": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await duesBill(w)).id },
      body: { post: { amount: 1_000, method: "tunai", paidAt: "2026-02-05T03:00:00.000Z" } },
    }),
  },
  "/api/iuran/pembayaran/:id/pembatalan": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await duesPayment(w)).id },
      body: { post: { reason: "Transfer dibatalkan bank" } },
    }),
  },
  "/api/iuran/tagihan/:id/bayar-online": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await duesBill(w)).id }, ownerRole: "warga", residentOwned: true }),
  },
  "/api/kas/:id/koreksi": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await cashEntry(w)).id },
      body: { post: { reason: "Salah catat" } },
    }),
  },
  "/api/anggaran/:tahun": {
    kind: "exempt",
    why: "a year names no object: each community's budget lives in its own database, so B's PUT of a year writes B's budget",
    probe: { params: { tahun: "2026" }, status: 401 },
  },
  "/api/pengeluaran/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await expense(w)).id },
      body: { put: { status: "ditolak", reason: "Belum ada kuitansi" } },
    }),
  },
  "/api/kampanye/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await campaign(w)).id },
      body: { put: { title: "Renovasi pos ronda RT" } },
    }),
  },
  "/api/kampanye/:id/donasi": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await campaign(w)).id }, body: { post: { amount: 10_000 } } }),
  },
  "/api/kampanye/:id/donasi/:donationId": {
    kind: "tenant",
    make: async (w) => {
      const p = await pledge(w);
      return { params: { id: p.campaignId, donationId: p.donationId }, body: { put: { status: "ditolak" } } };
    },
  },
  "/api/public/tenants/:slug/laporan": {
    kind: "public",
    make: async (w) => {
      await transparentA(w);
      return { params: { slug: w.a.tenant.slug }, foreign: { slug: unique("rt-tidak-ada") } };
    },
  },
  "/api/berita/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await beritaItem(w)).id }, body: { put: { title: "Judul baru" } } }),
  },
  "/api/pengumuman/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await pengumumanItem(w)).id },
      body: { put: { title: "Judul baru" } },
    }),
  },
  "/api/pengumuman/:id/pengiriman": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await pengumumanItem(w)).id } }),
  },
  "/api/agenda/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await agendaItem(w)).id }, body: { put: { place: "Masjid" } } }),
  },
  "/api/user/push-tokens/:token": {
    kind: "tenant",
    make: async (w) => ({ params: { token: await pushToken(w) }, ownerRole: "warga", residentOwned: true }),
  },
  "/api/auth/oauth/:provider": {
    kind: "exempt",
    why: "names a configured identity provider, not an object (test/modules/identity/oauth.test.ts)",
  },
  "/api/auth/oauth/:provider/callback": {
    kind: "exempt",
    why: "its object is the signed state, checked in test/modules/identity/oauth.test.ts",
  },
  // An RT linked to an RW: B's admin (an RT's) gets 404 for it, as for any link that is not theirs.
  "/api/tenant-hierarchy/link-child/:slug": {
    kind: "tenant",
    make: async (w) =>
      w.once("linked RT", async () => {
        const rw = await createTenant({ type: "RW" });
        const child = await createTenant({ parentSlug: rw.slug });
        return { params: { slug: child.slug }, ownerRole: "admin" as const };
      }),
  },
  // Tenant file store, gallery and marketplace (issue 16).
  "/api/files/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await storedFile(w)).id }, ownerRole: "warga" }),
  },
  "/api/galeri/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await album(w)).id } }),
  },
  "/api/galeri/:id/foto": {
    kind: "tenant",
    make: async (w) => ({ params: { id: (await album(w)).id }, body: { post: photoForm() } }),
  },
  "/api/galeri/:id/foto/:photoId": {
    kind: "tenant",
    make: async (w) => ({ params: await album(w) }),
  },
  "/api/pasar/listings/:id": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await listing(w)).id },
      body: { put: { price: "nego" } },
      ownerRole: "warga",
    }),
  },
  "/api/pasar/listings/:id/moderasi": {
    kind: "tenant",
    make: async (w) => ({
      params: { id: (await listing(w)).id },
      body: { put: { status: "disembunyikan", reason: "Uji isolasi" } },
    }),
  },
  // Tenant archives (issue 19): the admin's exports of A; operators reach any tenant's.
  "/api/archives/:id": {
    kind: "tenant",
    make: async (w) => ({ params: { id: await archive(w) } }),
  },
  "/api/archives/:id/download": {
    kind: "tenant",
    make: async (w) => ({ params: { id: await archive(w) } }),
  },
  "/api/platform/tenants/:id/archives": {
    kind: "platform",
    make: async (w) => ({ params: { id: w.a.tenant.id } }),
  },
  "/api/platform/archives/:id": {
    kind: "platform",
    make: async (w) => ({ params: { id: await archive(w) } }),
  },
  "/api/platform/archives/:id/download": {
    kind: "platform",
    make: async (w) => ({ params: { id: await archive(w) } }),
  },
  "/api/platform/tenants/:id/imports": {
    kind: "exempt",
    why: "its :id is the import's target, which must be an empty tenant (409 otherwise); operators name any tenant by design, walked in test/modules/platform-ops/archives.test.ts",
    probe: { params: { id: "01NOSUCHTENANT000000000000" }, status: 401 },
  },
  // Members and duties (issue 27): a member of A (a treasurer living there), whom no caller of B reaches.
  "/api/members/:userId/roles": {
    kind: "tenant",
    make: async (w) => ({
      params: { userId: (await memberOfA(w)).id },
      body: { put: { roles: ["bendahara", "sekretaris"] } },
    }),
  },
  "/api/members/:userId/person": {
    kind: "tenant",
    make: async (w) => ({ params: { userId: (await memberOfA(w)).id }, body: { put: { personId: null } } }),
  },
  "/api/members/:userId": {
    kind: "tenant",
    make: async (w) => ({ params: { userId: (await memberOfA(w)).id } }),
  },
};

function memberOfA(w: World) {
  return w.once("member of A", () => w.a.tenant.member("bendahara", { unitId: w.a.household.unitId }));
}
