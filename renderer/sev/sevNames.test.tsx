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

// Round 54: a motion is named as its file is when no project names it (the tuner's document, `walk<U+202E>ves.mtn`
// from a received folder), and a .sev opened beside it belongs to that name. The lint rule knew no such field: the
// note of a .sev that belongs to another motion, its Open button, the "has no .sev" notice and the Paste tooltip said
// it raw. Mutation: each of SevEditor's motionName, file.motionName and clipboard.sourceMotion shown raw.
describe("a motion's name taken from a received file, in the SEV editor (round 54)", () => {
  const MOTION = 'walk\u202eves\u001b[2J\u200b';
  const MOTION_SHOWN = 'walk\\u202eves\\u001b[2J\\u200b';
  const tuner = (name: string) =>
    documentStore.getState().load({
      documentId: 'd1',
      kind: 'mtn',
      readOnly: false,
      name,
      path: `/ws/${name}.mtn`,
      motion: emptyMotion(10, [{ parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' }]),
    });

  it('the note of a .sev that belongs to another motion, and its Open button', () => {
    tuner(`${MOTION}2`);
    sevStore.getState().load('/ws/walk.sev', MOTION, WALK_SEV);
    const html = renderToStaticMarkup(<SevEditor />);
    expect(hidden(html)).toBe(false);
    expect(html).toContain(`The tuner shows <b>${MOTION_SHOWN}2</b>`);
    expect(html).toContain(`holds the sound events of <b>${MOTION_SHOWN}</b>`);
    expect(html).toContain(`Open ${MOTION_SHOWN}</button>`);
  });

  it('the notice of a motion with no .sev, and the Paste tooltip', () => {
    tuner(MOTION);
    const html = renderToStaticMarkup(<SevEditor />);
    expect(hidden(html)).toBe(false);
    expect(html).toContain(`<b>${MOTION_SHOWN}</b> has no .sev.`);
    expect(html).toContain(`Create ${MOTION_SHOWN}.sev`);
    sevStore.getState().load(`/ws/${MOTION}.sev`, MOTION, WALK_SEV, { documentId: 'd1', path: `/ws/${MOTION}.mtn` });
    sevStore.getState().setClipboard({ sourceMotion: MOTION, events: [] });
    const pasting = renderToStaticMarkup(<SevEditor />);
    expect(hidden(pasting)).toBe(false);
    expect(pasting).toContain(`copied events of ${MOTION_SHOWN} with the first at the playhead`);
  });
});
