/**
 * The window's close questions without Electron (docs/architecture.md, Electron, maintainer's read round 6): a stand-in
 * window and message boxes that the test answers. main.test.ts drives the same code through a fake `electron`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MessageBoxOptions } from 'electron';
import type { DocumentStateReport } from '../shared/ipc/documents';
import { createCloseQuestions, quitDuringCommitsQuestion } from './closeQuestions';

const CLEAN: DocumentStateReport = { documentId: null, documentName: null, dirty: false };
const DIRTY: DocumentStateReport = { documentId: 'd1', documentName: 'walk.mtn', dirty: true, unsaved: ['walk.mtn'] };

/** A window, a document, builds and message boxes held until the test answers them (or fails them). */
function setUp(document: DocumentStateReport, running: string[] = [], exporting: string[] = []) {
  const asked: MessageBoxOptions[] = [];
  const answers: { answer(response: number): void; fail(e: Error): void }[] = [];
  const state = {
    document,
    running,
    exporting,
    cancelled: [] as string[],
    exportsCancelled: [] as string[],
    closes: 0,
    closing: 0,
    saves: 0,
    kept: 0,
    destroyed: false,
  };
  const win = {
    close: () => {
      if (state.destroyed) throw new TypeError('Object has been destroyed');
      state.closes++;
    },
    isDestroyed: () => state.destroyed,
  };
  const onClose = createCloseQuestions({
    win,
    ask: (options) => {
      asked.push(options);
      return new Promise((resolve, reject) =>
        answers.push({ answer: (response) => resolve({ response }), fail: reject }),
      );
    },
    document: () => state.document,
    builds: {
      get any() {
        return state.running.length > 0;
      },
      running: async () => [...state.running],
      cancel: async (ids) => {
        state.cancelled.push(...ids);
        state.running = state.running.filter((id) => !ids.includes(id));
      },
    },
    exports: {
      get any() {
        return state.exporting.length > 0;
      },
      running: async () => [...state.exporting],
      cancel: async (ids) => {
        state.exportsCancelled.push(...ids);
        state.exporting = state.exporting.filter((id) => !ids.includes(id));
      },
    },
    saveAllAndClose: () => state.saves++,
    closing: () => state.closing++,
    kept: () => state.kept++,
  });
  /** A close of the window, as Electron sends it: whether it was prevented. */
  const close = (): boolean => {
    let prevented = false;
    onClose({ preventDefault: () => (prevented = true) });
    return prevented;
  };
  /** Answers the question on screen (the last asked) once it is there. */
  const answer = async (response: number) => {
    await vi.waitFor(() => expect(answers.length).toBeGreaterThan(0));
    answers.shift()!.answer(response);
    await new Promise((r) => setTimeout(r, 0));
  };
  const fail = async () => {
    await vi.waitFor(() => expect(answers.length).toBeGreaterThan(0));
    answers.shift()!.fail(new Error('stand-in: the box could not be shown'));
    await new Promise((r) => setTimeout(r, 0));
  };
  return { state, asked, close, answer, fail };
}

afterEach(() => vi.restoreAllMocks());

describe('createCloseQuestions', () => {
  it('lets a close with nothing unsaved and no build go on, asking nothing', () => {
    const { state, asked, close } = setUp(CLEAN);
    expect(close()).toBe(false);
    expect(state.closing).toBe(1);
    expect(asked).toEqual([]);
  });

  it('asks about unsaved work once however often the window is closed meanwhile; "Discard changes" closes it', async () => {
    const { state, asked, close, answer } = setUp(DIRTY);
    expect(close()).toBe(true);
    // The title bar again, Cmd+Q, the taskbar: the question on screen is the one answered.
    expect(close()).toBe(true);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      title: 'Unsaved changes',
      buttons: ['Save', 'Discard changes', 'Cancel'],
      defaultId: 0,
      cancelId: 2,
    });
    expect(asked[0].message).toContain('walk.mtn');
    await answer(1);
    expect(state).toMatchObject({ closes: 1, kept: 0 });
    // The close that "Discard changes" made goes on without asking again.
    expect(close()).toBe(false);
    expect(state.closing).toBe(1);
    expect(asked).toHaveLength(1);
  });

  it('"Save" hands the save to the page, which closes the window itself; "Cancel" keeps it open and asks next time', async () => {
    const { state, asked, close, answer } = setUp({ ...DIRTY, unsaved: ['walk.mtn', 'walk.sev'] });
    close();
    expect(asked[0].buttons).toEqual(['Save all', 'Discard changes', 'Cancel']);
    await answer(0);
    expect(state).toMatchObject({ saves: 1, closes: 0, kept: 0 });
    close();
    await answer(2);
    // Kept: a quit that asked is over (main's window slot).
    expect(state).toMatchObject({ saves: 1, closes: 0, closing: 0, kept: 1 });
    expect(close()).toBe(true);
    expect(asked).toHaveLength(3);
  });

  it('a question that fails to show leaves the window open with its edits, and the next close asks again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { state, asked, close, fail } = setUp(DIRTY);
    close();
    await fail();
    expect(state).toMatchObject({ closes: 0, kept: 1 });
    expect(close()).toBe(true);
    expect(asked).toHaveLength(2);
  });

  it('"Discard changes" answered after the window went closes nothing', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { state, close, answer } = setUp(DIRTY);
    close();
    state.destroyed = true;
    await answer(1);
    expect(state.closes).toBe(0);
    expect(console.error).not.toHaveBeenCalled();
  });

  it('a running build is asked about; "Stop and close" cancels it and closes, "Cancel" keeps both', async () => {
    const { state, asked, close, answer } = setUp(CLEAN, ['b1', 'b2']);
    expect(close()).toBe(true);
    expect(close()).toBe(true);
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    expect(asked[0]).toMatchObject({ title: 'Build in progress', message: '2 builds are running.', cancelId: 1 });
    await answer(1);
    expect(state).toMatchObject({ cancelled: [], closes: 0, kept: 1 });
    close();
    await answer(0);
    expect(state.cancelled).toEqual(['b1', 'b2']);
    expect(state).toMatchObject({ closes: 1, kept: 1 });
    // No build is left: the close that follows goes ahead.
    expect(close()).toBe(false);
    expect(state.closing).toBe(1);
  });

  it('a build kept by "Cancel" after "Discard changes" makes the next close ask about the edits again', async () => {
    const { state, asked, close, answer } = setUp(DIRTY, ['b1']);
    close();
    await answer(1);
    // Discard closed the window again: now the build is asked about, and kept.
    expect(state.closes).toBe(1);
    expect(close()).toBe(true);
    await answer(1);
    expect(asked.map((a) => a.title)).toEqual(['Unsaved changes', 'Build in progress']);
    close();
    expect(asked.map((a) => a.title)).toEqual(['Unsaved changes', 'Build in progress', 'Unsaved changes']);
  });

  it('a build question that fails to show says so over the window, and the next close asks again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { state, asked, close, fail } = setUp(CLEAN, ['b1']);
    close();
    await fail();
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]).toMatchObject({
      type: 'error',
      message: 'ActGuy could not stop the running build or export, so it stays open.',
    });
    expect(state).toMatchObject({ closes: 0, kept: 1 });
    expect(close()).toBe(true);
    await vi.waitFor(() => expect(asked).toHaveLength(3));
    expect(asked[2].title).toBe('Build in progress');
  });

  // Round 10 (maintainer's read). Mutations that fail: the close looking at the builds only (no question, the window
  // closes); the exports not cancelled on "Stop and close"; the question's words for builds whatever runs.
  it('a running Export All is asked about as a build is: "Stop and close" cancels it, "Cancel" keeps both', async () => {
    const { state, asked, close, answer } = setUp(CLEAN, [], ['e1']);
    expect(close()).toBe(true);
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    expect(asked[0]).toMatchObject({
      title: 'Export in progress',
      message: 'An Export All is running.',
      detail: 'Closing ActGuy stops it before it writes anything: the files on disk stay as they are.',
      buttons: ['Stop and close', 'Cancel'],
      cancelId: 1,
    });
    await answer(1);
    expect(state).toMatchObject({ exportsCancelled: [], closes: 0, kept: 1 });
    // A build started meanwhile: one question names both, and "Stop and close" cancels both.
    state.running = ['b1'];
    close();
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]).toMatchObject({
      title: 'Build and export in progress',
      message: 'A build and an Export All are running.',
    });
    await answer(0);
    expect(state).toMatchObject({ cancelled: ['b1'], exportsCancelled: ['e1'], closes: 1 });
    expect(close()).toBe(false);
    expect(state.closing).toBe(1);
  });
});

// Round 11 (maintainer's read). Mutations that fail: Quit now as the default or Escape's answer; the answers swapped;
// the count not said.
describe('the quit question while files are put in place', () => {
  it('asks with Wait the default and what Escape answers; only Quit now quits', async () => {
    const asked: MessageBoxOptions[] = [];
    let response = 0;
    const question = quitDuringCommitsQuestion(async (options) => (asked.push(options), { response }));
    expect(await question(1)).toBe(false);
    response = 1;
    expect(await question(2)).toBe(true);
    expect(asked[0]).toMatchObject({
      message: 'ActGuy is still putting files in place.',
      buttons: ['Wait', 'Quit now'],
      defaultId: 0,
      cancelId: 0,
    });
    expect(asked[1].message).toBe('ActGuy is still putting 2 sets of files in place.');
    // Round 12: the quit's signal reaches the box, to take it down once the commits end. Mutation that fails: not
    // handed on.
    const taken = new AbortController();
    await question(1, taken.signal);
    expect(asked[2].signal).toBe(taken.signal);
    expect(asked[2].detail).toMatch(/asks again every half minute/);
  });
});
