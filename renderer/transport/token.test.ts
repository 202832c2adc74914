import { describe, expect, it } from 'vitest';
import { TOKEN_STORAGE_KEY, takeToken, urlWithoutToken, type TokenHome } from './loopback';

/** A page at `href` with a history that records what replaced the address, and a storage (or none). */
function pageAt(href: string, stored: Map<string, string> | 'none' = new Map()) {
  const replaced: string[] = [];
  const loc = { href, search: new URL(href).search, hash: new URL(href).hash };
  const home: TokenHome = {
    location: loc,
    history: {
      state: { kept: 1 },
      replaceState: (_state, _unused, url) => {
        replaced.push(url);
        loc.href = url;
        loc.search = new URL(url).search;
        loc.hash = new URL(url).hash;
      },
    },
    sessionStorage: () => {
      if (stored === 'none') throw new Error('SecurityError: storage is disabled');
      return { getItem: (k) => stored.get(k) ?? null, setItem: (k, v) => void stored.set(k, v) };
    },
  };
  return { home, replaced, loc };
}

const TOKEN = 'a'.repeat(64);

describe('the page token taken out of the address (docs/security.md round 40)', () => {
  it('keeps the token in the tab and replaces the address by one without it; a reload finds it again', () => {
    const stored = new Map<string, string>();
    const first = pageAt(`http://127.0.0.1:5191/?token=${TOKEN}`, stored);
    expect(takeToken(first.home)).toBe(TOKEN);
    expect(first.replaced).toEqual(['http://127.0.0.1:5191/']);
    expect(first.loc.href).not.toContain(TOKEN);
    expect(stored.get(TOKEN_STORAGE_KEY)).toBe(TOKEN);
    // The reload: the address holds no token, the tab's storage does.
    const reload = pageAt(first.loc.href, stored);
    expect(takeToken(reload.home)).toBe(TOKEN);
    expect(reload.replaced).toEqual([]);
  });

  it('takes a #token= as well, and keeps every other part of the address', () => {
    const { home, replaced } = pageAt(`http://127.0.0.1:5191/index.html?open=a&token=${TOKEN}#x=1&token=${TOKEN}`);
    expect(takeToken(home)).toBe(TOKEN);
    expect(replaced).toEqual(['http://127.0.0.1:5191/index.html?open=a#x=1']);
    expect(urlWithoutToken(`http://127.0.0.1:5191/#token=${TOKEN}`)).toBe('http://127.0.0.1:5191/');
  });

  it("a new run's URL in the same tab replaces the kept token", () => {
    const stored = new Map([[TOKEN_STORAGE_KEY, 'old']]);
    expect(takeToken(pageAt(`http://127.0.0.1:5191/?token=${TOKEN}`, stored).home)).toBe(TOKEN);
    expect(stored.get(TOKEN_STORAGE_KEY)).toBe(TOKEN);
  });

  it('leaves the token in the address where the tab cannot keep it, so that a reload still works', () => {
    const { home, replaced } = pageAt(`http://127.0.0.1:5191/?token=${TOKEN}`, 'none');
    expect(takeToken(home)).toBe(TOKEN);
    expect(replaced).toEqual([]);
  });

  it('is null with no token in the address nor the tab', () => {
    expect(takeToken(pageAt('http://127.0.0.1:5191/').home)).toBeNull();
    expect(takeToken(pageAt('http://127.0.0.1:5191/', 'none').home)).toBeNull();
  });
});
