import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyMotion } from '../../shared/motion/types';
import { documentStore } from '../state/documentStore';
import { StatusBar } from './StatusBar';

describe('the status bar', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    documentStore.getState().close();
  });

  it("shows a received file's name and path with hidden characters as \\uXXXX (docs/security.md, round 52)", () => {
    // `walk<U+202E>ves.mtn` from a received folder: raw, its name read as another in the status bar and its tooltip.
    const name = 'walk\u202eves\u001b[2J\u200b';
    documentStore.getState().load({
      documentId: 'd1',
      kind: 'mtn',
      readOnly: false,
      name,
      path: `/ws/in\u202e/${name}.mtn`,
      motion: emptyMotion(10, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' }]),
    });
    // A page rendered to text reads the store's server snapshot (zustand: its initial state): here, the state set above.
    vi.spyOn(documentStore, 'getInitialState').mockImplementation(documentStore.getState);
    const html = renderToStaticMarkup(<StatusBar />);
    // eslint-disable-next-line no-control-regex
    expect(/[\u001b\u200b\u202e]/.test(html)).toBe(false);
    const shown = 'walk\\u202eves\\u001b[2J\\u200b';
    expect(html).toContain(`<span title="/ws/in\\u202e/${shown}.mtn" data-testid="doc-name">${shown}</span>`);
  });
});
