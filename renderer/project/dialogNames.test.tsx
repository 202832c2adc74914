import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BuildStatus, ProjectExportStatus } from '../../shared/ipc/project';
import { BuildDialog } from './BuildDialog';
import { ProjectExportDialog } from './ProjectExportDialog';
import { ProjectPanel } from './ProjectPanel';
import { projectExportStore } from './projectExport';
import { projectStore } from './projectStore';
import { sevStore } from '../sev/sevStore';
import { WALK_SEV } from '../testing/fakeMotions';

// docs/security.md, round 52: what main sends in a build's or an export's value (not its error, which the reply
// escapes) may hold a received folder's names: a project in a subfolder `p<U+202E>q`, whose outputs' paths, warnings
// and problems name it. Raw, the override showed the rest of the line reversed; an ESC or a zero-width space hid.
const DIR = '/ws/p\u202eq\u200b';
const SHOWN = '/ws/p\\u202eq\\u200b';
const PROBLEM = `${DIR}/walk.sev:1:1: \u001b[2J a problem\n\tits second line`;
const PROBLEM_SHOWN = `${SHOWN}/walk.sev:1:1: \\u001b[2J a problem\n\tits second line`;

/** Whether the markup holds a hidden character raw (React writes them as they are, in text and attributes alike). */
// eslint-disable-next-line no-control-regex
const hidden = (html: string) => /[\u001b\u200b\u202e]/.test(html);

// A page rendered to text reads a store's server snapshot (zustand: its initial state): here, the state set below.
beforeEach(() => {
  for (const store of [projectExportStore, projectStore, sevStore])
    vi.spyOn(store, 'getInitialState').mockImplementation(store.getState as never);
});

afterEach(() => {
  vi.restoreAllMocks();
  projectExportStore.setState({ status: null });
  projectStore.getState().setBuild(null);
  sevStore.getState().close();
});

describe("a received folder's names in the Build and Export All dialogs", () => {
  it('Export All: its folder, the files it wrote (their tooltips too), its warnings and problems', () => {
    const status: ProjectExportStatus = {
      exportId: 'e1',
      format: 'gltf',
      state: 'done',
      folder: `${DIR}/export`,
      done: 1,
      count: 1,
      current: null,
      written: [{ name: 'walk\u202e', of: 'run\u200b', files: [{ path: `${DIR}/export/walk\u202e.glb`, bytes: 10 }] }],
      errors: [{ message: PROBLEM } as ProjectExportStatus['errors'][number]],
      warnings: [PROBLEM],
    };
    projectExportStore.setState({ status });
    const html = renderToStaticMarkup(<ProjectExportDialog />);
    expect(hidden(html)).toBe(false);
    expect(html).toContain(`into ${SHOWN}/export, as one unit`);
    expect(html).toContain(`title="${SHOWN}/export/walk\\u202e.glb: `);
    expect(html).toContain('walk\\u202e.glb (10 bytes)');
    expect(html).toContain(PROBLEM_SHOWN);
    // The desktop app's question before any work names the folder chosen the same way.
    projectExportStore.setState({ status: { ...status, state: 'confirm', written: [], errors: [], warnings: [] } });
    expect(renderToStaticMarkup(<ProjectExportDialog />)).toContain(`Export into ${SHOWN}/export?`);
  });

  it('Build: the paths it wrote, its warnings and problems, the unsaved .sev it took', () => {
    // A .sev opened from a received folder, edited and not saved, then built: the dialog names it.
    sevStore.getState().load(`${DIR}/walk\u202e.sev`, 'walk', WALK_SEV);
    sevStore.getState().edit('move event', (doc) => ({ ...doc, events: doc.events.map((e) => ({ ...e, frame: 9 })) }));
    const status = {
      buildId: 'b1',
      dryRun: false,
      state: 'done',
      report: null,
      elapsedMs: 1,
      done: 0,
      count: 0,
      current: null,
      motions: [],
      errors: [{ message: PROBLEM }],
      warnings: [PROBLEM],
      written: [`${DIR}/out/stage.mar`],
    } as unknown as BuildStatus;
    projectStore.getState().setBuild({ status, starting: false, unsaved: ['walk\u202e.sev'] });
    const html = renderToStaticMarkup(<BuildDialog />);
    expect(hidden(html)).toBe(false);
    expect(html).toContain(`${SHOWN}/out/stage.mar`);
    expect(html).toContain('Save walk\\u202e.sev</button>');
    expect(html).toContain(PROBLEM_SHOWN);
  });
});

describe("a received project's names in the project panel (round 53)", () => {
  it("its file's name and path, a motion row's .sev and the row's tooltip", () => {
    // A project key refuses control and bidi characters (round 11), and a zero-width space since round 54, but the
    // panel still lists the rows of a project its check refuses; the project's own file name is the received folder's.
    const text = JSON.stringify({
      version: 1,
      fps: 30,
      motions: [{ name: 'walk', mtn: 'wa\u200blk.mtn', sev: 'wa\u200blk.sev' }],
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
    });
    projectStore.getState().adopt(`${DIR}/p\u202e.actguy.json`, text);
    const html = renderToStaticMarkup(<ProjectPanel />);
    projectStore.getState().close();
    expect(hidden(html)).toBe(false);
    expect(html).toContain(`title="${SHOWN}/p\\u202e.actguy.json" data-testid="project-name">p\\u202e</span>`);
    expect(html).toContain('wa\\u200blk.sev');
    expect(html).toContain('walk: wa\\u200blk.mtn + wa\\u200blk.sev');
  });
});

// Round 54: the lint rule knew values by their names; a mapped list's item (`warnings.map((w) => …{w}…)`) slipped
// through it. The project panel showed a build check's warnings raw: they name a received folder's paths, as the
// Build dialog's do. Mutation: ProjectPanel showing `{w}`.
describe("a build check's warnings in the project panel (round 54)", () => {
  it('are shown escaped, their line breaks and tabs kept', () => {
    const text = JSON.stringify({
      version: 1,
      fps: 30,
      motions: [{ name: 'walk', mtn: 'walk.mtn' }],
      outputs: { mar: 'out/stage.mar', sar: 'out/stage.sar' },
    });
    projectStore.getState().adopt(`${DIR}/p.actguy.json`, text);
    projectStore.getState().setStatus({ warnings: [PROBLEM] });
    const html = renderToStaticMarkup(<ProjectPanel />);
    projectStore.getState().close();
    expect(hidden(html)).toBe(false);
    expect(html).toContain(`data-testid="project-warning">${PROBLEM_SHOWN}</li>`);
  });
});
