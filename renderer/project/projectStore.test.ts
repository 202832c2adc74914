import { describe, expect, it } from 'vitest';
import { createProjectStore, isProjectDirty, motionOfProblem, motionPaths, projectText } from './projectStore';

const TEXT = `${JSON.stringify(
  {
    version: 1,
    motions: [
      { name: 'walk', mtn: 'walk.mtn', sev: 'walk.sev' },
      { name: 'run', mtn: 'sub/run.mtn' },
    ],
    outputs: { mar: 'out/a.mar', sar: 'out/a.sar' },
  },
  null,
  2,
)}\n`;

describe('project store', () => {
  it('validates as actguy build does, resolves paths, and tracks dirty against the text on disk', () => {
    const s = createProjectStore();
    s.getState().adopt('/p/x.actguy.json', TEXT);
    expect(s.getState().errors).toEqual([]);
    expect(motionPaths(s.getState(), 1)).toEqual({ mtn: '/p/sub/run.mtn', sev: null });
    expect(isProjectDirty(s.getState())).toBe(false);
    const json = s.getState().json!;
    s.getState().setJson({ ...json, motions: [json.motions[1], json.motions[0]] });
    expect(isProjectDirty(s.getState())).toBe(true);
    s.getState().setJson(json);
    expect(isProjectDirty(s.getState())).toBe(false);
    expect(projectText(json)).toBe(TEXT);
  });

  it('reports every validation problem and places each on its motion', () => {
    const s = createProjectStore();
    s.getState().adopt('/p/x.actguy.json', TEXT.replace('"run"', '"run fast"'));
    const errors = s.getState().errors;
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0].message).toMatch(/motions\[1\]\.name/);
    expect(motionOfProblem(s.getState(), errors[0])).toBe(1);
    expect(motionOfProblem(s.getState(), { message: 'x', file: '/p/walk.sev', line: 3 })).toBe(0);
    expect(motionOfProblem(s.getState(), { message: 'x', file: '/elsewhere.sev' })).toBeNull();
  });
});
