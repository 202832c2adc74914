import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BuildProblem } from '../../shared/ipc';
import { ProjectPanel } from './ProjectPanel';
import { motionOfProblem, motionPathReads, problemsByMotion, projectStore } from './projectStore';

// Renderer review, round 11 (docs/architecture.md): the project panel asked motionOfProblem of every problem for each
// row at each render, and it resolved every motion's paths for each problem placed by its file.
const MOTIONS = 60;

/** A project of MOTIONS motions (m0.mtn + m0.sev, ...) whose last two share their .sev, with its check's problems. */
function adoptProject(): BuildProblem[] {
  const motions = Array.from({ length: MOTIONS }, (_, i) => ({
    name: `m${i}`,
    mtn: `m${i}.mtn`,
    sev: `m${i === MOTIONS - 1 ? i - 1 : i}.sev`,
  }));
  const text = JSON.stringify({ version: 1, fps: 30, motions, outputs: { mar: 'out/a.mar', sar: 'out/a.sar' } });
  projectStore.getState().adopt('/p/stage.actguy.json', text);
  const problems: BuildProblem[] = [
    // One by file for each motion (its .sev for the even ones, its .mtn for the odd), two more on motion 3 by place.
    ...motions.map((m, i) => ({ message: `problem ${i}`, file: `/p/${i % 2 ? m.mtn : m.sev}`, line: 1 })),
    { message: 'a name', where: 'motions[3].name' },
    { message: 'motions[3].sev: no such file' },
    { message: 'not of a motion', file: '/p/elsewhere.sev' },
  ];
  projectStore.setState({ problems });
  return problems;
}

beforeEach(() => {
  vi.spyOn(projectStore, 'getInitialState').mockImplementation(projectStore.getState as never);
});
afterEach(() => {
  vi.restoreAllMocks();
  projectStore.getState().close();
});

describe("the project panel's problems of each motion", () => {
  it('are placed as motionOfProblem places each, every motion read once', () => {
    const problems = adoptProject();
    const s = projectStore.getState();
    const reads = motionPathReads();
    const placed = problemsByMotion(s, problems);
    expect(motionPathReads() - reads).toBe(MOTIONS);
    for (let i = 0; i < MOTIONS; i++)
      expect(placed.get(i) ?? [], `motion ${i}`).toEqual(problems.filter((p) => motionOfProblem(s, p) === i));
    // The .sev of the last two motions: the first names it, as motionOfProblem's search finds it.
    expect(placed.get(MOTIONS - 2)!.map((p) => p.message)).toEqual([`problem ${MOTIONS - 2}`]);
    expect(placed.get(MOTIONS - 1)!.map((p) => p.message)).toEqual([`problem ${MOTIONS - 1}`]);
    expect([...placed.values()].flat()).toHaveLength(problems.length - 1);
  });

  it("are found once a render: a row's count, each motion's paths read once", () => {
    adoptProject();
    const reads = motionPathReads();
    const html = renderToStaticMarkup(<ProjectPanel />);
    // Each motion's paths once for the problems (and for what else the panel shows), not rows x problems x motions.
    expect(motionPathReads() - reads).toBeLessThanOrEqual(2 * MOTIONS);
    const counts = [...html.matchAll(/data-testid="project-motion-problems">(\d+) problems?</g)].map((m) =>
      Number(m[1]),
    );
    expect(counts).toEqual(Array.from({ length: MOTIONS }, (_, i) => (i === 3 ? 3 : 1)));
  });
});
