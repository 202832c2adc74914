import { describe, expect, it } from 'vitest';
import { parseSevStrict } from './parse';
import { copySevEvents, pasteSevEvents } from './clipboard';
import { removeEvents, shiftEvents } from './edit';

const WALK = `sev 1
motion walk
se 0 SE_FOOT_L variants A0 A1 A2 A3 A4 A5 A6 A7
se 1 SE_FOOT_R
se 2 SE_CLOTH
event 5 0 2  # left heel
event 21 1 3
event 30 2 -
event 38 0 2
`;
const WALK_JOINTS = ['Hips', 'Spine', 'LeftFoot', 'RightFoot'];
/** Another skeleton: the feet are other joint numbers, and there is no Spine. */
const CMU_JOINTS = ['Hips', 'RightFoot', 'Chest', 'Neck', 'LeftFoot'];
const CMU = `sev 1
motion cmu
se 0 SE_CLOTH
se 1 SE_OTHER
event 100 1 0
`;

describe('copy and paste of sound events', () => {
  it('copies offsets from the earliest event, SEs by definition, joints by name and notes', () => {
    const clip = copySevEvents(parseSevStrict(WALK), [3, 0, 2], { name: 'walk', jointNames: WALK_JOINTS });
    expect(clip.sourceMotion).toBe('walk');
    expect(clip.events.map((e) => [e.offset, e.se.name, e.joint?.name ?? null, e.trailing ?? null])).toEqual([
      [0, 'SE_FOOT_L', 'LeftFoot', ' left heel'],
      [25, 'SE_CLOTH', null, null],
      [33, 'SE_FOOT_L', 'LeftFoot', null],
    ]);
    expect(clip.events[0].se.variants).toHaveLength(8);
  });

  it('pastes into the same document at a frame, keeping spacing, SE indices and joints', () => {
    const doc = parseSevStrict(WALK);
    const clip = copySevEvents(doc, [0, 1], { name: 'walk', jointNames: WALK_JOINTS });
    const r = pasteSevEvents(doc, clip, 60, { name: 'walk', frameCount: 132, jointNames: WALK_JOINTS });
    if (!r.ok) throw new Error(r.problems.join('\n'));
    expect(r.added).toEqual([4, 5]);
    expect(r.definedSes).toEqual([]);
    expect(r.doc.ses).toBe(doc.ses);
    expect(r.doc.events.slice(4).map((e) => [e.frame, e.se, e.joint, e.comments.trailing ?? null])).toEqual([
      [60, 0, 2, ' left heel'],
      [76, 1, 3, null],
    ]);
    expect(doc.events).toHaveLength(4);
  });

  it('pastes into another motion by joint name, reusing an SE of the same name and defining the missing ones', () => {
    const clip = copySevEvents(parseSevStrict(WALK), [0, 1, 2], { name: 'walk', jointNames: WALK_JOINTS });
    const target = parseSevStrict(CMU);
    const r = pasteSevEvents(target, clip, 200, { name: 'cmu', frameCount: 688, jointNames: CMU_JOINTS });
    if (!r.ok) throw new Error(r.problems.join('\n'));
    const pasted = r.doc.events.slice(1);
    // LeftFoot is joint 2 in walk and 4 here; RightFoot 3 and 1.
    expect(pasted.map((e) => [e.frame, e.joint])).toEqual([
      [200, 4],
      [216, 1],
      [225, null],
    ]);
    // SE_CLOTH exists here as index 0; SE_FOOT_L's index 0 and SE_FOOT_R's 1 are taken, so they land on 2 and 3.
    const nameOf = (i: number) => r.doc.ses.find((d) => d.index === i)!;
    expect(pasted.map((e) => nameOf(e.se).name)).toEqual(['SE_FOOT_L', 'SE_FOOT_R', 'SE_CLOTH']);
    expect(pasted[2].se).toBe(0);
    expect(nameOf(pasted[0].se).variants).toEqual(['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7']);
    expect(r.definedSes.map((d) => d.name)).toEqual(['SE_FOOT_L', 'SE_FOOT_R']);
    expect(new Set(r.doc.ses.map((d) => d.index)).size).toBe(r.doc.ses.length);
  });

  it('refuses the whole paste, naming each event that cannot land and why', () => {
    const walk = parseSevStrict(`sev 1
se 0 SE_A
event 0 0 1
event 10 0 2
event 12 0 -
`);
    const clip = copySevEvents(walk, [0, 1, 2], { name: 'walk', jointNames: WALK_JOINTS });
    const target = parseSevStrict(CMU);
    const r = pasteSevEvents(target, clip, 685, { name: 'cmu', frameCount: 688, jointNames: CMU_JOINTS });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems).toEqual([
      'event at frame 685 (SE_A on Spine): cmu has no joint named Spine',
      'event at frame 695 (SE_A on LeftFoot): frame 695 is past the end of cmu (0..688)',
      'event at frame 697 (SE_A on no joint): frame 697 is past the end of cmu (0..688)',
      'with the playhead at frame 676 or earlier they all fit',
    ]);
    const short = pasteSevEvents(target, copySevEvents(walk, [0, 2], { name: 'walk', jointNames: WALK_JOINTS }), 0, {
      name: 'tiny',
      frameCount: 5,
      jointNames: WALK_JOINTS,
    });
    expect(short).toEqual({
      ok: false,
      problems: [
        'event at frame 12 (SE_A on no joint): frame 12 is past the end of tiny (0..5)',
        'the copied events span 12 frames, more than tiny has (0..5)',
      ],
    });
  });
});

describe('group edits of events', () => {
  it('removes several events in one edit', () => {
    const doc = parseSevStrict(WALK);
    expect(removeEvents(doc, [3, 0, 0]).events.map((e) => e.frame)).toEqual([21, 30]);
    expect(() => removeEvents(doc, [4])).toThrow('no event 4');
  });

  it('shifts events together, refusing a shift that would leave 0..N', () => {
    const doc = parseSevStrict(WALK);
    const moved = shiftEvents(doc, [0, 2], 1, 132);
    expect(moved.events.map((e) => e.frame)).toEqual([6, 21, 31, 38]);
    expect(moved.events[0].comments.trailing).toBe(' left heel');
    expect(moved.events[0].loc).toBeUndefined();
    expect(moved.events[1]).toBe(doc.events[1]);
    expect(() => shiftEvents(doc, [0, 3], -6, 132)).toThrow(
      'the event at frame 5 would move to frame -1, outside 0..132',
    );
    expect(() => shiftEvents(doc, [0, 3], 1, 38)).toThrow(
      'the event at frame 38 would move to frame 39, outside 0..38',
    );
  });
});

describe('paste of an SE the target defines under the same name', () => {
  const ROUGH = `sev 1
motion walk_rough
se 0 SE_FOOT_L
event 10 0 2
event 26 0 2
`;
  const target = { name: 'walk', frameCount: 200, jointNames: WALK_JOINTS };

  it('asks when the variants differ, then reuses the target definition (no second SE of one name) or defines one when told', () => {
    const clip = copySevEvents(parseSevStrict(ROUGH), [0, 1], { name: 'walk_rough', jointNames: WALK_JOINTS });
    const doc = parseSevStrict(WALK);
    const asked = pasteSevEvents(doc, clip, 100, target);
    expect(asked.ok).toBe(false);
    expect(!asked.ok && 'differing' in asked && asked.differing).toEqual([
      { name: 'SE_FOOT_L', target: { index: 0, variants: ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'A7'] } },
    ]);
    const reused = pasteSevEvents(doc, clip, 100, target, { sameName: 'reuse' });
    if (!reused.ok) throw new Error('refused');
    expect(reused.doc.ses.map((d) => d.name)).toEqual(['SE_FOOT_L', 'SE_FOOT_R', 'SE_CLOTH']);
    expect(reused.doc.events.slice(-2).map((e) => [e.frame, e.se])).toEqual([
      [100, 0],
      [116, 0],
    ]);
    expect(reused.definedSes).toEqual([]);
    const defined = pasteSevEvents(doc, clip, 100, target, { sameName: 'define' });
    if (!defined.ok) throw new Error('refused');
    expect(defined.definedSes).toEqual([{ index: 3, name: 'SE_FOOT_L' }]);
  });

  it('reuses a definition with the same name and variants without asking, at any index', () => {
    const clip = copySevEvents(parseSevStrict(WALK), [0], { name: 'walk', jointNames: WALK_JOINTS });
    const moved = parseSevStrict(
      WALK.replace('se 0 SE_FOOT_L', 'se 7 SE_FOOT_L').replace(/event (\d+) 0 /g, 'event $1 7 '),
    );
    const r = pasteSevEvents(moved, clip, 100, target);
    if (!r.ok) throw new Error('refused');
    expect(r.definedSes).toEqual([]);
    expect(r.doc.events.at(-1)!.se).toBe(7);
  });
});
