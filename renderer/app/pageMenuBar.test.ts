import { afterEach, describe, expect, it, vi } from 'vitest';
import { pageDrawsMenuBar } from './shortcuts';

afterEach(() => vi.unstubAllGlobals());

describe("the page's own menu bar", () => {
  it('is hidden on macOS under Electron (the native menu bar is the menu there) and drawn everywhere else', () => {
    vi.stubGlobal('navigator', { platform: 'MacIntel', userAgent: '' });
    vi.stubGlobal('window', { actguy: {} });
    expect(pageDrawsMenuBar()).toBe(false);
    // The browser build on a Mac has no other menu.
    vi.stubGlobal('window', {});
    expect(pageDrawsMenuBar()).toBe(true);
    vi.stubGlobal('navigator', { platform: 'Win32', userAgent: '' });
    vi.stubGlobal('window', { actguy: {} });
    expect(pageDrawsMenuBar()).toBe(true);
    expect(pageDrawsMenuBar('other', 'native-menu')).toBe(true);
    expect(pageDrawsMenuBar('mac', 'page')).toBe(true);
  });
});
