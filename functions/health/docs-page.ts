/**
 * The /docs page: Redoc (the `redoc` package's standalone bundle, served by
 * the service itself at /docs/redoc.standalone.js, nothing from elsewhere)
 * rendering /openapi.json, grouped by module with each module's
 * description. Paths are worked out from where the page is served (`/docs`,
 * `/docs/`, `/v1/docs`, a deployed stage), so every spelling works.
 */
export const docsPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Guild Module Management Service API</title>
<style>body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",sans-serif}noscript p{padding:1rem}</style>
</head>
<body>
<noscript><p>The documentation needs JavaScript; the document itself is at <a href="../openapi.json">openapi.json</a>.</p></noscript>
<div id="docs"></div>
<script>
  (function () {
    var base = location.pathname.replace(/\\/docs\\/?$/, '');
    var script = document.createElement('script');
    script.src = base + '/docs/redoc.standalone.js';
    script.onload = function () {
      Redoc.init(base + '/openapi.json', {
        hideDownloadButton: false,
        expandResponses: '200',
        pathInMiddlePanel: true,
        nativeScrollbars: true,
        theme: { typography: { fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif', headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif' }, code: { fontFamily: 'ui-monospace, monospace' } } }
      }, document.getElementById('docs'));
    };
    document.body.appendChild(script);
  })();
</script>
</body>
</html>
`;
