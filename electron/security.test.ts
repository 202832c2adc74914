import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appTopFrame, CONTENT_SECURITY_POLICY, pageScriptFiles } from './security';

/** A policy as directive -> sources (order of directives does not matter to a browser). */
function directives(policy: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), sources.join(' '));
  }
  return map;
}

describe('content security policy', () => {
  it("renderer/index.html's meta tag carries the header's policy (less frame-ancestors, which a meta tag cannot)", () => {
    const html = readFileSync(resolve(__dirname, '..', 'renderer', 'index.html'), 'utf8');
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html);
    expect(meta, 'index.html has a CSP meta tag').not.toBeNull();
    const header = directives(CONTENT_SECURITY_POLICY);
    expect(header.get('frame-ancestors')).toBe("'none'");
    header.delete('frame-ancestors');
    expect(directives(meta![1])).toEqual(header);
  });

  it('allows no eval, no inline script and nothing remote', () => {
    const policy = directives(CONTENT_SECURITY_POLICY);
    for (const [name, sources] of policy) {
      expect(sources, name).not.toMatch(/unsafe-eval|wasm-unsafe-eval|https?:|\*/);
      if (name === 'script-src' || name === 'default-src') expect(sources, name).not.toContain("'unsafe-inline'");
    }
    expect(policy.get('object-src')).toBe("'none'");
  });
});

describe('appTopFrame (the sender check of every IPC call, main.ts trustedSender)', () => {
  const mainFrame = { url: 'actguy://app/index.html' };
  const contents = { mainFrame };
  const ORIGIN = 'actguy://app';

  it("takes the window's main frame showing the app's page", () => {
    expect(appTopFrame({ sender: contents, senderFrame: mainFrame }, contents, ORIGIN)).toBe(true);
  });

  it('refuses a sub-frame, another contents, a gone window, a frame gone meanwhile and another origin', () => {
    // A frame inside the page (a library's, a hostile page's) showing the app's own URL all the same.
    const subFrame = { url: 'actguy://app/index.html' };
    expect(appTopFrame({ sender: contents, senderFrame: subFrame }, contents, ORIGIN)).toBe(false);
    const other = { mainFrame };
    expect(appTopFrame({ sender: other, senderFrame: mainFrame }, contents, ORIGIN)).toBe(false);
    expect(appTopFrame({ sender: contents, senderFrame: mainFrame }, null, ORIGIN)).toBe(false);
    expect(appTopFrame({ sender: contents, senderFrame: null }, contents, ORIGIN)).toBe(false);
    for (const url of ['https://evil.example/', 'actguy://app.evil/index.html', 'actguy://app', 'file:///index.html']) {
      const frame = { url };
      const page = { mainFrame: frame };
      expect(appTopFrame({ sender: page, senderFrame: frame }, page, ORIGIN)).toBe(false);
    }
  });
});

// Round 14 (maintainer's read). Mutations that fail: a script of another origin or scheme counted as the renderer's;
// the path not resolved against the page (`./assets/…` from a page in a folder).
describe("the page's own scripts (pageScriptFiles)", () => {
  const dir = resolve('/opt/actguy/renderer');
  it("are the renderer's files its <script src> name, as Chromium resolves them; nothing else the page names", () => {
    const html = [
      '<link rel="icon" href="data:," />',
      '<script type="module" crossorigin src="./assets/index-C7o7AQvn.js"></script>',
      '<link rel="stylesheet" href="./assets/index.css">',
      '<script src="https://cdn.example/x.js"></script>',
      '<script src="data:text/javascript,1"></script>',
      '<script src="actguy://other/y.js"></script>',
      '<script src="/x/%2e%2e%2f%2e%2e%2foutside.js"></script>',
      '<SCRIPT SRC="sub/z.js"></SCRIPT>',
      '<script>inline()</script>',
    ].join('\n');
    expect([...pageScriptFiles(html, 'actguy://app/index.html', dir)]).toEqual([
      join(dir, 'assets', 'index-C7o7AQvn.js'),
      join(dir, 'sub', 'z.js'),
    ]);
    expect([...pageScriptFiles('<script src="./a.js"></script>', 'actguy://app/pages/index.html', dir)]).toEqual([
      join(dir, 'pages', 'a.js'),
    ]);
  });
});
