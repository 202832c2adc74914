import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sessionStore } from '../state/sessionStore';
import { FilePicker } from './Dialogs';

// docs/security.md, round 54: the lint rule knew values by their names, and the picker shows its folders as the
// items of a mapped list (`subfolders.map((f) => …)`): a received workspace's folder `p<U+202E>q` was listed
// escaped, but its row's tooltip (`Go into …`) said it raw, the rest of the line reversed.
describe("the in-app file picker's folders", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    sessionStore.setState({ picker: null });
  });

  // Mutation: the row's title `Go into ${f}` raw; the root's line `{req.root ?? …}` raw.
  it("shows a received folder's name and the workspace's with hidden characters as \\uXXXX, in the row and its tooltip", () => {
    sessionStore.setState({
      picker: {
        mode: 'open',
        title: 'Open',
        extensions: ['mtn'],
        defaultName: '',
        root: '/ws\u200b',
        files: [],
        folders: ['p\u202eq\u001b[2J'],
        resolve: () => undefined,
      },
    });
    // A page rendered to text reads the store's server snapshot (zustand: its initial state): here, the state set above.
    vi.spyOn(sessionStore, 'getInitialState').mockImplementation(sessionStore.getState);
    const html = renderToStaticMarkup(<FilePicker />);
    // eslint-disable-next-line no-control-regex
    expect(/[\u001b\u200b\u202e]/.test(html)).toBe(false);
    expect(html).toContain('title="Go into p\\u202eq\\u001b[2J"');
    expect(html).toContain('<span>p\\u202eq\\u001b[2J/</span>');
    expect(html).toContain('/ws\\u200b · .mtn');
  });
});
