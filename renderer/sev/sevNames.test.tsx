import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyMotion } from '../../shared/motion/types';
import { projectStore } from '../project/projectStore';
import { documentStore } from '../state/documentStore';
import { sessionStore } from '../state/sessionStore';
import { WALK_SEV } from '../testing/fakeMotions';
import { auditionStore } from './audition';
import { BrokenSevView } from './BrokenSevView';
import { SevEditor } from './SevEditor';
import { sevStore } from './sevStore';

// docs/security.md, round 53: a .sev opened from a received folder is named as its file is; the SEV editor's header,
// its tooltips, the broken-text view and the unreadable notice showed that name raw, so `walk<U+202E>ves.sev` read
// as another file (an ESC or a zero-width space hid in it).
const DIR = '/ws/in\u202e';
const NAME = 'walk\u202eves\u001b[2J\u200b.sev';
const SHOWN = 'walk\\u202eves\\u001b[2J\\u200b.sev';
// eslint-disable-next-line no-control-regex
const hidden = (html: string) => /[\u001b\u200b\u202e]/.test(html);

beforeEach(() => {
  for (const store of [sevStore, projectStore, documentStore, sessionStore, auditionStore])
    vi.spyOn(store, 'getInitialState').mockImplementation(store.getState as never);
});
afterEach(() => {
  vi.restoreAllMocks();
  sevStore.getState().close();
  documentStore.getState().close();
});

describe("a received .sev's name in the SEV editor", () => {
  it('the header and its tooltip', () => {
    sevStore.getState().load(`${DIR}/${NAME}`, 'walk', WALK_SEV);
    const html = renderToStaticMarkup(<SevEditor />);
    expect(hidden(html)).toBe(false);
    expect(html).toContain(`title="/ws/in\\u202e/${SHOWN}" data-testid="sev-file">${SHOWN}`);
  });

  it('the view of a text that does not parse, and its errors', () => {
    sevStore.getState().load(`${DIR}/${NAME}`, 'walk', 'motion walk\nthis is not a statement\n');
    expect(sevStore.getState().file?.parseErrors.length).toBeGreaterThan(0);
    const html = renderToStaticMarkup(<BrokenSevView />);
    expect(hidden(html)).toBe(false);
    expect(html).toContain(`in ${SHOWN}`);
  });

  it('the notice of a file that cannot be read, and its reason', () => {
    documentStore.getState().load({
      documentId: 'd1',
      kind: 'mtn',
      readOnly: false,
      name: 'walk',
      path: '/ws/walk.mtn',
      motion: emptyMotion(10, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' }]),
    });
    sevStore.getState().closeUnreadable(`${DIR}/${NAME}`, `Could not read ${DIR}/${NAME}: it is not a plain file`);
    const html = renderToStaticMarkup(<SevEditor />);
    expect(hidden(html)).toBe(false);
    expect(html).toContain(`<b>${SHOWN}</b> is there but cannot be read`);
  });
});
