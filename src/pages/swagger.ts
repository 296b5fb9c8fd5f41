/**
 * The interactive reference, served from the Worker's own static assets (swagger-ui-dist copied by
 * scripts/copy-swagger-ui.mjs) so it renders with no internet access; chanfana's default page loads
 * its scripts from a public CDN.
 */
export function swaggerPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Warga API reference</title>
  <link rel="stylesheet" href="/swagger-ui/swagger-ui.css">
  <link rel="icon" type="image/png" href="/swagger-ui/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/swagger-ui/swagger-ui-bundle.js"></script>
  <script src="/swagger-ui/init.js"></script>
</body>
</html>`;
}
