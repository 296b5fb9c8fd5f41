/// <reference lib="webworker" />
/**
 * The app's service worker (built by scripts/build-web.mjs into /sw.js, scope "/"). Small and
 * hand-written, on purpose: the app shell precached at install (the list the build wrote in), later
 * build files kept as they are first loaded, page loads answered from the shell without a network, and
 * the last answer of each API read kept so an offline reload still shows what was last seen, marked as
 * such (rules.ts says what is kept and what never is). Web Push: shows the notification, and a tap
 * opens the screen it is about.
 */
import {
  DATA_CACHE,
  keepable,
  pathOfPush,
  SHELL_CACHE_PREFIX,
  SHELL_KEY,
  stamped,
  strategyFor,
} from "./rules";

// Written in by the build (scripts/build-web.mjs): the shell's files and the build's id.
declare const __PRECACHE__: string[];
declare const __BUILD__: string;
declare const __WORKER_FIRST__: string[];

declare const self: ServiceWorkerGlobalScope;
const SHELL_CACHE = `${SHELL_CACHE_PREFIX}${__BUILD__}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL_CACHE);
      // "reload": past the HTTP cache, so the shell is this build's and not an older copy.
      await cache.addAll(__PRECACHE__.map((url) => new Request(url, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(SHELL_CACHE_PREFIX) && name !== SHELL_CACHE) {
          await caches.delete(name);
        }
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method === "POST" && url.pathname === "/api/auth/logout") {
    // Signing out forgets what this person read, whatever the answer.
    event.waitUntil(caches.delete(DATA_CACHE));
    return;
  }
  switch (strategyFor(req, self.location.origin, __WORKER_FIRST__)) {
    case "page":
      event.respondWith(page(req));
      return;
    case "asset":
      event.respondWith(asset(req));
      return;
    case "read":
      event.respondWith(read(req));
      return;
    default:
      return;
  }
});

async function page(req: Request): Promise<Response> {
  try {
    return await fetch(req);
  } catch (error) {
    const shell = await caches.match(SHELL_KEY, { cacheName: SHELL_CACHE });
    if (shell) {
      return shell;
    }
    throw error;
  }
}

async function asset(req: Request): Promise<Response> {
  const cached = await caches.match(req, { ignoreVary: true });
  if (cached) {
    return cached;
  }
  const res = await fetch(req);
  // A build file loaded later (another screen's chunk) is kept for the next offline start.
  if (res.ok && new URL(req.url).pathname.startsWith("/app/")) {
    const copy = res.clone();
    void caches.open(SHELL_CACHE).then((cache) => cache.put(req, copy));
  }
  return res;
}

async function read(req: Request): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(req);
  } catch (error) {
    // ignoreVary: the kept answer was asked for with the same URL but maybe another token or language.
    const kept = await (await caches.open(DATA_CACHE)).match(req, { ignoreVary: true });
    if (kept) {
      return kept;
    }
    throw error;
  }
  if (res.status === 401) {
    // Whoever reads now is not who the kept answers belong to.
    await caches.delete(DATA_CACHE);
  } else if (keepable(res)) {
    const copy = stamped(res.clone(), new Date());
    const cache = await caches.open(DATA_CACHE);
    await cache.put(req, copy);
  }
  return res;
}

self.addEventListener("push", (event) => {
  let message: { title?: string; body?: string; data?: Record<string, string> } = {};
  try {
    message = event.data?.json() ?? {};
  } catch {
    message = { body: event.data?.text() };
  }
  event.waitUntil(
    self.registration.showNotification(message.title || "Warga", {
      body: message.body ?? "",
      icon: "/icons/icon-192.png",
      badge: "/icons/maskable-192.png",
      lang: "id",
      data: { path: pathOfPush(message.data) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const path = (event.notification.data as { path?: string } | null)?.path ?? "/";
  const target = new URL(path, self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows[0];
      // navigate() works on a window this worker controls; any other case opens a new one.
      const moved = open ? await open.navigate(target).catch(() => null) : null;
      if (moved) {
        await moved.focus();
        return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
