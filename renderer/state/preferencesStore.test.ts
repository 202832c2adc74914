import { afterEach, describe, expect, it } from 'vitest';
import {
  createPreferencesStore,
  mergeStoredPreferences,
  onSettingsWriteFailure,
  preferencesReadWarning,
} from './preferencesStore';

/** A localStorage stand-in holding `items`, installed for one store's creation (the store reads it when created). */
function withStorage(items: Record<string, string>) {
  const map = new Map(Object.entries(items));
  (globalThis as { localStorage?: unknown }).localStorage = {
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
  return map;
}

afterEach(() => {
  delete (globalThis as { localStorage?: unknown }).localStorage;
});

describe('preferences read back from storage', () => {
  const defaults = () => createPreferencesStore().getState();

  it('keeps every stored value of the right kind', () => {
    withStorage({
      'actguy.preferences': JSON.stringify({
        state: {
          playbackSpeed: 0.25,
          loop: false,
          eulerOrder: 'ZYX',
          tuningFolded: ['flags', 'locks'],
          timelineFolded: ['arms'],
          defaultTolerances: {
            positionTolerance: 0.1,
            rotationToleranceDeg: 0.2,
            offsetTolerance: 0.3,
            method: 'classic',
          },
          layout: { tuningWidth: 400, curvesHeight: 250, timelineHeight: 200 },
        },
        version: 1,
      }),
    });
    const p = createPreferencesStore().getState();
    expect(p.playbackSpeed).toBe(0.25);
    expect(p.loop).toBe(false);
    expect(p.eulerOrder).toBe('ZYX');
    expect(p.tuningFolded).toEqual(['flags', 'locks']);
    expect(p.timelineFolded).toEqual(['arms']);
    expect(p.defaultTolerances).toEqual({
      positionTolerance: 0.1,
      rotationToleranceDeg: 0.2,
      offsetTolerance: 0.3,
      method: 'classic',
    });
    expect(p.layout).toEqual({ tuningWidth: 400, curvesHeight: 250, timelineHeight: 200 });
  });

  it('a stored value of the wrong kind keeps the default, so one bad entry cannot break every start', () => {
    withStorage({
      'actguy.preferences': JSON.stringify({
        state: {
          playbackSpeed: 1e308,
          loop: 'yes',
          eulerOrder: 'QQQ',
          tuningFolded: null,
          timelineFolded: { 0: 'arms' },
          defaultTolerances: { positionTolerance: -1, rotationToleranceDeg: 0.5, offsetTolerance: 0.5 },
          layout: { tuningWidth: 'wide', curvesHeight: null, timelineHeight: 200 },
          injected: 'x',
        },
        version: 1,
      }),
    });
    const d = defaults();
    const p = createPreferencesStore().getState();
    expect(p.playbackSpeed).toBe(d.playbackSpeed);
    expect(p.loop).toBe(d.loop);
    expect(p.eulerOrder).toBe(d.eulerOrder);
    expect(p.tuningFolded).toEqual([]);
    expect(p.timelineFolded).toEqual([]);
    expect(p.defaultTolerances).toEqual(d.defaultTolerances);
    expect(p.layout).toEqual({ ...d.layout, timelineHeight: 200 });
    expect('injected' in p).toBe(false);
    // The folds the panel then makes work on the default list.
    p.set({ tuningFolded: [...p.tuningFolded, 'flags'] });
  });

  it("the import and MSH export dialogs' last values outlast the window, each checked as its dialog checks it", () => {
    const stored = (importOptions: unknown, mshExportOptions: unknown) => {
      withStorage({
        'actguy.preferences': JSON.stringify({ state: { importOptions, mshExportOptions }, version: 1 }),
      });
      const p = createPreferencesStore().getState();
      return [p.importOptions, p.mshExportOptions];
    };
    const msh = { positionTolerance: 0.02, rotationToleranceDeg: 0.25, useJointOverrides: false };
    expect(stored({ fps: 120, scale: 5.644444 }, msh)).toEqual([{ fps: 120, scale: 5.644444 }, msh]);
    // A written window's values, read back by the next one.
    const map = withStorage({});
    createPreferencesStore()
      .getState()
      .set({ importOptions: { fps: 60, scale: 0.01 } });
    withStorage(Object.fromEntries(map));
    expect(createPreferencesStore().getState().importOptions).toEqual({ fps: 60, scale: 0.01 });
    withStorage({});
    const d = defaults();
    for (const bad of [null, [], { fps: 0, scale: 1 }, { fps: 1001, scale: 1 }, { fps: 30, scale: -1 }, { fps: '30' }])
      expect(stored(bad, null)).toEqual([d.importOptions, d.mshExportOptions]);
    for (const bad of [
      { ...msh, positionTolerance: -0.1 },
      { ...msh, rotationToleranceDeg: Infinity },
      { ...msh, useJointOverrides: 'yes' },
    ])
      expect(stored(null, bad)[1]).toEqual(d.mshExportOptions);
  });

  it("the dialogs' limits are their fields' limits: 1000 fps and a tolerance of 0 are kept, a scale of 0 is not", () => {
    const stored = (importOptions: unknown, mshExportOptions: unknown) => {
      withStorage({
        'actguy.preferences': JSON.stringify({ state: { importOptions, mshExportOptions }, version: 1 }),
      });
      const p = createPreferencesStore().getState();
      return [p.importOptions, p.mshExportOptions];
    };
    withStorage({});
    const d = defaults();
    // The import dialog takes 1000 fps (IMPORT_FPS_MAX) and no scale of 0 (parseImportOptions).
    expect(stored({ fps: 1000, scale: 0.01 }, null)[0]).toEqual({ fps: 1000, scale: 0.01 });
    expect(stored({ fps: 24, scale: 0 }, null)[0]).toEqual(d.importOptions);
    // The MSH export dialog takes tolerances of 0 (parseMshExportOptions: "0 or more"), each on its own.
    const zeroPos = { positionTolerance: 0, rotationToleranceDeg: 0.3, useJointOverrides: false };
    const zeroRot = { positionTolerance: 0.04, rotationToleranceDeg: 0, useJointOverrides: true };
    expect(stored(null, zeroPos)[1]).toEqual(zeroPos);
    expect(stored(null, zeroRot)[1]).toEqual(zeroRot);
    expect(stored(null, { ...zeroRot, rotationToleranceDeg: -1 })[1]).toEqual(d.mshExportOptions);
    expect(stored(null, { ...zeroRot, rotationToleranceDeg: '0.5' })[1]).toEqual(d.mshExportOptions);
  });

  // The settings that lived only in memory until 2026-12-03 (docs/tuner.md "Which settings persist where").
  // Mutation that fails: any of them left out of mergeStoredPreferences (its stored value is not read back).
  it('the glTF units, the channel sort, Audition, the footstep settings, the curve channel and the chain outlast the window', () => {
    const kept = {
      gltfExportScale: 1,
      gltfExportSource: 'compressed',
      channelSortByError: false,
      auditionEnabled: false,
      footContactOptions: {
        heightTolerance: 3,
        maxHeightAboveFloor: 8,
        maxSpeed: 2,
        windowFrames: 10,
        minContactFrames: 4,
      },
      curveChannel: 'quat',
      timelineChain: 'legs',
    };
    withStorage({ 'actguy.preferences': JSON.stringify({ state: kept, version: 1 }) });
    expect(createPreferencesStore().getState()).toMatchObject(kept);
    // Each checked as its control sets it: anything else keeps the default.
    withStorage({
      'actguy.preferences': JSON.stringify({
        state: {
          gltfExportScale: 0.5,
          gltfExportSource: 'decoded',
          channelSortByError: 'no',
          auditionEnabled: 0,
          footContactOptions: { ...kept.footContactOptions, maxSpeed: -1 },
          curveChannel: 'euler; x',
          timelineChain: 'tail',
        },
        version: 1,
      }),
    });
    expect(createPreferencesStore().getState()).toMatchObject({
      gltfExportScale: null,
      gltfExportSource: 'source',
      channelSortByError: true,
      auditionEnabled: true,
      footContactOptions: defaults().footContactOptions,
      curveChannel: 'euler',
      timelineChain: null,
    });
  });

  // Export All as glTF's choice (round 19): a value the app does not write falls back to the source, and is said.
  // Mutation that fails: gltfExportSource taken whatever its value (or not taken: the choice is not read back).
  it('the glTF export’s motion is read back as input', () => {
    for (const [stored, read, warned] of [
      ['compressed', 'compressed', false],
      ['source', 'source', false],
      ['Compressed', 'source', true],
      [1, 'source', true],
      [null, 'source', true],
    ] as const) {
      withStorage({ 'actguy.preferences': JSON.stringify({ state: { gltfExportSource: stored }, version: 1 }) });
      expect(createPreferencesStore().getState().gltfExportSource, String(stored)).toBe(read);
      if (warned) expect(preferencesReadWarning()).toContain('gltfExportSource is of the wrong kind');
      else expect(preferencesReadWarning()).toBeNull();
    }
  });

  it('storage that does not parse keeps every default (the store is still made)', () => {
    withStorage({ 'actguy.preferences': '{"state": {"loop": fal' });
    const p = createPreferencesStore().getState();
    expect(p.loop).toBe(defaults().loop);
  });

  it('a stored state that is not an object keeps every default', () => {
    const d = defaults();
    for (const stored of [null, 7, 'x', [1, 2]]) {
      const p = mergeStoredPreferences(stored, d);
      expect(p).toEqual(d);
    }
  });

  it('a long or odd folded list is refused, repeats dropped', () => {
    const d = defaults();
    expect(mergeStoredPreferences({ tuningFolded: Array(65).fill('a') }, d).tuningFolded).toEqual([]);
    expect(mergeStoredPreferences({ tuningFolded: ['a', 3] }, d).tuningFolded).toEqual([]);
    expect(mergeStoredPreferences({ tuningFolded: ['a', 'a', 'b'] }, d).tuningFolded).toEqual(['a', 'b']);
  });

  // What the store wrote is read back without a word; anything set aside is said (renderer/main.tsx shows it at
  // start), never dropped in silence. Mutations that fail: no warning for text that does not parse, for another
  // version, for a value of the wrong kind; or a warning for the store's own defaults (gltfExportScale null).
  it('says what it set aside, and nothing when the store reads back what it wrote', () => {
    const map = withStorage({});
    createPreferencesStore().getState().set({ loop: false });
    expect(map.get('actguy.preferences')).toContain('"loop":false');
    expect(createPreferencesStore().getState().loop).toBe(false);
    expect(preferencesReadWarning()).toBeNull();

    withStorage({ 'actguy.preferences': '{"state": {"loop": fal' });
    expect(createPreferencesStore().getState().loop).toBe(true);
    expect(preferencesReadWarning()).toBe(
      "The saved preferences (actguy.preferences in this window's storage) could not be used: the text is not JSON. Their defaults are used instead. The text as found is kept under actguy.preferences.setAside.",
    );

    for (const wrapper of [{ state: { loop: false }, version: 7 }, { state: 'x', version: 1 }, [1], 'x']) {
      withStorage({ 'actguy.preferences': JSON.stringify(wrapper) });
      expect(createPreferencesStore().getState().loop).toBe(true);
      expect(preferencesReadWarning()).toContain('could not be used: not preferences of version 1.');
    }

    withStorage({
      'actguy.preferences': JSON.stringify({
        state: { loop: false, playbackSpeed: 3, layout: { tuningWidth: 'wide' }, futureKey: 1 },
        version: 1,
      }),
    });
    const p = createPreferencesStore().getState();
    // (read before defaults(): that is another start, of the store this one rewrote)
    expect(preferencesReadWarning()).toContain('could not be used: playbackSpeed, layout are of the wrong kind.');
    expect([p.loop, p.playbackSpeed, p.layout]).toEqual([false, 1, defaults().layout]);
  });

  // A damaged store is said at one start, not at every start until a preference changes: the text as found is kept
  // under another key (nothing is lost) and the preferences used are written. Mutations that fail: no rewrite (the
  // warning comes back at the next start); no copy kept aside; the rewrite even when the copy could not be kept.
  it('what it set aside is kept under another key and the store rewritten, so the next start is quiet', () => {
    const damaged = JSON.stringify({ state: { loop: false, playbackSpeed: 'fast' }, version: 1 });
    for (const text of [damaged, '{"state": {"loop": fal', JSON.stringify({ state: { loop: false }, version: 7 })]) {
      const map = withStorage({ 'actguy.preferences': text });
      const loop = createPreferencesStore().getState().loop;
      expect(preferencesReadWarning()).toMatch(/kept under actguy\.preferences\.setAside\.$/);
      expect(map.get('actguy.preferences.setAside')).toBe(text);
      // the next start reads what this one used, without a word, and the copy stays
      const again = createPreferencesStore().getState();
      expect(preferencesReadWarning()).toBeNull();
      expect([again.loop, again.playbackSpeed]).toEqual([loop, 1]);
      expect(map.get('actguy.preferences.setAside')).toBe(text);
    }
    expect(createPreferencesStore().getState().loop).toBe(true); // the version-7 text: defaults
  });

  it('a damaged store whose copy the storage refuses is left in place, and the warning says so', () => {
    const damaged = '{"state": {"loop": fal';
    const map = new Map([['actguy.preferences', damaged]]);
    (globalThis as { localStorage?: unknown }).localStorage = {
      getItem: (k: string) => map.get(k) ?? null,
      setItem: (k: string, v: string) => {
        if (k.endsWith('.setAside')) throw new Error('QuotaExceededError');
        map.set(k, v);
      },
      removeItem: (k: string) => void map.delete(k),
    };
    createPreferencesStore();
    expect(preferencesReadWarning()).toContain(
      'The text as found could not be kept aside (QuotaExceededError), so it is left in place.',
    );
    expect(map.get('actguy.preferences')).toBe(damaged);
  });

  // Mutation that fails: safeStorage's failed write not reported (the preferences would then last for this window
  // only, and nobody would know until the next start).
  it('a write the storage refuses is said once: the preferences then last for this window only', () => {
    const said: string[] = [];
    onSettingsWriteFailure((m) => said.push(m));
    (globalThis as { localStorage?: unknown }).localStorage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    const p = createPreferencesStore();
    p.getState().set({ loop: false });
    p.getState().set({ playbackSpeed: 2 });
    expect(p.getState().playbackSpeed).toBe(2);
    expect(said).toEqual([
      'The preferences could not be stored (QuotaExceededError): changes last for this window only.',
    ]);
    onSettingsWriteFailure(null);
  });
});
