/**
 * The verification web page (type 3): small, accessible, no external assets,
 * no script needed (a plain form posts back to the same URL with its
 * one-time token), readable on a phone.
 */
import { escapeUTF8 } from 'entities/escape';

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeUTF8(title)}</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { max-width: 26rem; width: calc(100% - 2rem); padding: 2rem 1.5rem; border-radius: 12px; box-shadow: 0 2px 12px rgb(0 0 0 / 15%); }
  h1 { font-size: 1.4rem; margin: 0 0 1rem; }
  p { line-height: 1.5; }
  button { font: inherit; font-size: 1.1rem; width: 100%; padding: 0.8rem; border: 0; border-radius: 8px; background: #3b5bdb; color: #fff; cursor: pointer; }
  button:focus-visible { outline: 3px solid #f59f00; outline-offset: 2px; }
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export function promptPage(actionUrl: string): string {
  return layout(
    'Verify your membership',
    `<h1>Verify your membership</h1>
<p>Press the button to confirm that you are a member and get access to the server.</p>
<form method="post" action="${escapeUTF8(actionUrl)}">
<button type="submit">Verify</button>
</form>`,
  );
}

export function donePage(message: string): string {
  return layout('Verified', `<h1>Verified</h1>\n<p role="status">${escapeUTF8(message)}</p>`);
}

export function refusedPage(): string {
  return layout(
    'This link does not work',
    `<h1>This link does not work</h1>
<p role="alert">The verification link is wrong, has expired, was used already, or was replaced by a newer one. Ask for a new verification in the server.</p>`,
  );
}

/** Any other failure: what happened, in the words of the error, and what the member can do. */
export function problemPage(title: string, message: string, advice: string): string {
  return layout(title, `<h1>${escapeUTF8(title)}</h1>\n<p role="alert">${escapeUTF8(message)}</p>\n<p>${escapeUTF8(advice)}</p>`);
}
