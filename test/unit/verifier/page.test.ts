import { describe, expect, it } from 'vitest';
import { donePage, problemPage, promptPage, refusedPage } from '#functions/verifier/page.js';

describe('verifier web page', () => {
  const pages = [
    promptPage('/modules/verifier/web/1?token=abc'),
    donePage('You are verified.'),
    refusedPage(),
    problemPage('Verification is switched off', 'Module Disabled! off.', 'Ask the moderators.'),
  ];

  it('is small, self-contained, in a declared language and readable on a phone', () => {
    for (const page of pages) {
      expect(Buffer.byteLength(page)).toBeLessThan(10 * 1024);
      expect(page).toContain('<html lang="en">');
      expect(page).toContain('name="viewport"');
      expect(page).toMatch(/<h1>[^<]+<\/h1>/);
      expect(page).not.toMatch(/<script|(src|href)="https?:/);
    }
  });

  it('posts back without JavaScript to the URL it was given, escaped', () => {
    const page = promptPage('/modules/verifier/web/1?token=a"b&c');
    expect(page).toContain('<form method="post" action="/modules/verifier/web/1?token=a&quot;b&amp;c">');
    expect(page).toContain('<button type="submit">');
  });

  it('escapes the completed message a guild chose, and an error message', () => {
    expect(donePage('<b>hi</b> & "you"')).toContain('&lt;b&gt;hi&lt;/b&gt; &amp; &quot;you&quot;');
    expect(problemPage('<t>', '<m>', '<a>')).not.toMatch(/<[tma]>/);
  });
});
