/** Footstep suggestions (shared/sev/footsteps.ts) on the bundled samples, against contacts read by hand from their foot heights. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMtn } from '../shared/mtn/read';
import {
  contactRuns,
  detectFootContacts,
  findFootJoints,
  footTracks,
  uncoveredContacts,
} from '../shared/sev/footsteps';
import { parseSev } from '../shared/sev/parse';

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
      for (const f of landings)
        expect(
          starts.some((s) => Math.abs(s - f) <= 1),
          `${side} landing at ${f} (found ${starts.join(' ')})`,
        ).toBe(true);
    }
    // The event joints are the ankles (CMU: 4 LeftFoot, 9 RightFoot).
    expect(new Set(contacts.filter((c) => c.side === 'L').map((c) => c.joint))).toEqual(new Set([4]));
    expect(new Set(contacts.filter((c) => c.side === 'R').map((c) => c.joint))).toEqual(new Set([9]));
    // No contact while a foot is in the air: the airborne arcs (left foot above 12 cm), read by hand.
    const airborne = [
      [57, 67],
      [107, 116],
      [149, 160],
      [196, 208],
      [322, 333],
      [387, 397],
      [445, 456],
      [554, 564],
      [608, 620],
      [658, 670],
    ];
    for (const c of contacts.filter((x) => x.side === 'L'))
      for (const [a, b] of airborne)
        expect(c.endFrame < a || c.frame > b, `L contact ${c.frame}-${c.endFrame} overlaps the jump ${a}-${b}`).toBe(
          true,
        );
  });

  it('walk.mtn: one contact per heel strike, on the frames the hand-made walk.sev marks (right strikes one frame later, when the foot has stopped)', () => {
    const m = asset('walk.mtn');
    const contacts = detectFootContacts(m);
    expect(contacts.filter((c) => c.side === 'L').map((c) => c.frame)).toEqual([5, 38, 71, 104]);
    // The right foot stands on the floor at frame 0 (it does not land there): no footstep at 0.
    expect(contacts.filter((c) => c.side === 'R').map((c) => c.frame)).toEqual([22, 55, 88, 121]);
    expect(findFootJoints(m.joints)).toEqual([
      { side: 'L', foot: 17, toe: 18 },
      { side: 'R', foot: 21, toe: 22 },
    ]);
  });

  it('a contact under way at frame 0 is a landing only when the foot is still coming down there', () => {
    // Heights (units) and speeds (units per frame) of one foot: standing still from frame 0, then a step at 10.
    const standing = Float64Array.from([2, 2, 2, 2, 2, 4, 8, 9, 6, 3, 2, 2, 2, 2]);
    const landing = Float64Array.from([3, 2.2, 2, 2, 2, 4, 8, 9, 6, 3, 2, 2, 2, 2]);
    const speed = Float64Array.from([0.5, 0.5, 0, 0, 0, 3, 3, 2, 3, 3, 0.5, 0, 0, 0]);
    expect(contactRuns(standing, speed)).toEqual([{ frame: 10, endFrame: 13 }]);
    expect(contactRuns(landing, speed)).toEqual([
      { frame: 0, endFrame: 4 },
      { frame: 10, endFrame: 13 },
    ]);
  });

  it('suggestions skip contacts within 2 frames of an event of the same SE on the same joint', () => {
    const m = asset('walk.mtn');
    const contacts = detectFootContacts(m);
    const sev = parseSev(readFileSync(join(__dirname, '../assets/walk.sev'), 'utf8'));
    if (!sev.doc) throw new Error('walk.sev does not parse');
    const seOf = {
      L: sev.doc.ses.find((d) => d.name === 'SE_FOOT_L')!.index,
      R: sev.doc.ses.find((d) => d.name === 'SE_FOOT_R')!.index,
    };
    // walk.sev marks every step the detector finds (R one frame earlier): nothing is left to suggest.
    expect(uncoveredContacts(contacts, sev.doc.events, seOf)).toEqual([]);
    // Three frames away, or on another joint, or another SE, an event does not cover a contact.
    const l5 = contacts.find((c) => c.side === 'L' && c.frame === 5)!;
    expect(uncoveredContacts([l5], [{ frame: 8, se: seOf.L, joint: l5.joint }], seOf)).toEqual([l5]);
    expect(uncoveredContacts([l5], [{ frame: 7, se: seOf.L, joint: l5.joint }], seOf)).toEqual([]);
    expect(uncoveredContacts([l5], [{ frame: 5, se: seOf.L, joint: 3 }], seOf)).toEqual([l5]);
    expect(uncoveredContacts([l5], [{ frame: 5, se: seOf.R, joint: l5.joint }], seOf)).toEqual([l5]);
    expect(uncoveredContacts([l5], [{ frame: 5, se: 0, joint: l5.joint }], { L: null, R: null })).toEqual([l5]);
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
