/** Footstep suggestions (shared/sev/footsteps.ts) on the bundled samples, against contacts read by hand from their foot heights. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMtn } from '../shared/mtn/read';
import { detectFootContacts, findFootJoints, footTracks } from '../shared/sev/footsteps';

const asset = (name: string) => readMtn(readFileSync(join(__dirname, '../assets', name)));

describe('footstep suggestions', () => {
  it('finds the landings of every forward jump of CMU 01_01 on both feet, read by hand from the foot heights', () => {
    const m = asset('cmu_01_01.mtn');
    const contacts = detectFootContacts(m);
    // Read off the left/right foot tracks (height of the lower of ankle and toe, cm; speed cm/frame): the first
    // frame back on the floor band (~6-8 cm) with the foot slower than 1 cm/frame after each airborne arc.
    const landings = [70, 119, 162, 210, 336, 400, 459, 567, 622, 672];
    for (const side of ['L', 'R'] as const) {
      const starts = contacts.filter((c) => c.side === side).map((c) => c.frame);
      for (const f of landings) expect(starts.some((s) => Math.abs(s - f) <= 1), `${side} landing at ${f} (found ${starts.join(' ')})`).toBe(true);
    }
    // The event joints are the ankles (CMU: 4 LeftFoot, 9 RightFoot).
    expect(new Set(contacts.filter((c) => c.side === 'L').map((c) => c.joint))).toEqual(new Set([4]));
    expect(new Set(contacts.filter((c) => c.side === 'R').map((c) => c.joint))).toEqual(new Set([9]));
    // No contact while a foot is in the air: the airborne arcs (left foot above 12 cm), read by hand.
    const airborne = [[57, 67], [107, 116], [149, 160], [196, 208], [322, 333], [387, 397], [445, 456], [554, 564], [608, 620], [658, 670]];
    for (const c of contacts.filter((x) => x.side === 'L'))
      for (const [a, b] of airborne) expect(c.endFrame < a || c.frame > b, `L contact ${c.frame}-${c.endFrame} overlaps the jump ${a}-${b}`).toBe(true);
  });

  it('walk.mtn: one contact per heel strike, on the frames the hand-made walk.sev marks (right strikes one frame later, when the foot has stopped)', () => {
    const m = asset('walk.mtn');
    const contacts = detectFootContacts(m);
    expect(contacts.filter((c) => c.side === 'L').map((c) => c.frame)).toEqual([5, 38, 71, 104]);
    expect(contacts.filter((c) => c.side === 'R').map((c) => c.frame)).toEqual([0, 22, 55, 88, 121]);
    expect(findFootJoints(m.joints)).toEqual([{ side: 'L', foot: 17, toe: 18 }, { side: 'R', foot: 21, toe: 22 }]);
  });

  it('thresholds matter: a stricter speed limit shortens contacts; no foot joints, no suggestions', () => {
    const m = asset('walk.mtn');
    const loose = detectFootContacts(m);
    const strict = detectFootContacts(m, { maxSpeed: 0.1 });
    expect(strict.filter((c) => c.side === 'L').map((c) => c.frame)).toEqual([6, 39, 72, 105]);
    expect(loose.length).toBe(strict.length);
    const { height } = footTracks(m, findFootJoints(m.joints)[0]);
    expect(detectFootContacts(m, { maxHeightAboveFloor: -1 })).toEqual([]);
    expect(Math.min(...height)).toBeCloseTo(2, 0);
    const renamed = { ...m, joints: m.joints.map((j) => ({ ...j, name: `bone${j.name.length}` })) };
    expect(detectFootContacts(renamed)).toEqual([]);
  });
});
