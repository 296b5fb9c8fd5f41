import { handleEmail } from "./handler";

function json(status: number, body: unknown, contentType = "application/json"): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": contentType } });
}

// The Worker lives on its email() handler; fetch only answers health checks.
async function fetch(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (request.method === "GET" && pathname === "/health") {
    return json(200, { status: "ok", service: "warga-ticket-mail" });
  }
  return json(
    404,
    { type: "about:blank", title: "Not Found", status: 404, code: "not_found" },
    "application/problem+json",
  );
}

export default { email: handleEmail, fetch } satisfies ExportedHandler<Env>;
