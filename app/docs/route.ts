// The interactive API reference: Swagger UI from the swagger-ui-dist package, served by this app
// (see ./[file]/route.ts), so it works with no internet access.
const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Taskboard API reference</title>
    <link rel="stylesheet" href="/docs/swagger-ui.css" />
    <style>body { margin: 0; }</style>
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

export const GET = () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
