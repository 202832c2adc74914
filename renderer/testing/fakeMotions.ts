/**
 * Motions the renderer's controller tests open: through a fake main process (as File > Open does), or straight
 * into the stores with a .sev beside them (as the SEV editor's tests start). One place, so a test says what it
 * opens by name instead of spelling out the same OpenedMotion or load call again.
 */
import type { ActGuyApi, OpenedMotion } from '../../shared/ipc';
import { writeMtn } from '../../shared/mtn/write';
import { emptyMotion, type JointInfo } from '../../shared/motion/types';
import { setAppApi } from '../app/appApi';
import { fakeApi } from '../app/fakeApiForTests';
import { openPath } from '../app/motionFiles';
import { documentStore } from '../state/documentStore';
import { sevStore } from '../sev/sevStore';

/** The hips and a foot under them: the skeleton of the motions main opens in these tests. */
export const FAKE_JOINTS: JointInfo[] = [
  { parent: -1, mirror: 0, part: 0, reserved: 0, name: 'hips' },
  { parent: 0, mirror: 1, part: 0, reserved: 0, name: 'foot' },
];

/** What main answers for `/ws/<name>.mtn`: a still motion of frames 0..20 on `joints`, writable, no skeleton. */
export function fakeOpenedMotion(documentId = 'd1', name = 'walk', joints: JointInfo[] = FAKE_JOINTS): OpenedMotion {
  return {
    documentId,
    path: `/ws/${name}.mtn`,
    name,
    kind: 'mtn',
    readOnly: false,
    mtnBytes: writeMtn(emptyMotion(20, joints)),
    skeletonPath: null,
    marEntry: null,
  };
}

/**
 * Opens /ws/walk.mtn as the user would (openPath), from a fake main that answers it with fakeOpenedMotion() and
 * takes the other members `api` gives (an `openMotion` there answers instead).
 */
export async function openFakeMotion(api: Partial<ActGuyApi> = {}): Promise<void> {
  setAppApi(fakeApi({ openMotion: async () => ({ status: 'opened', motion: fakeOpenedMotion() }), ...api }));
  await openPath('/ws/walk.mtn', false);
}

/** A joint of the SEV tests' skeletons, under the root unless `parent` says otherwise. */
export const sevJoint = (name: string, parent = 0): JointInfo => ({ parent, mirror: 0, part: 0, reserved: 0, name });

/** A .sev for walk: two footstep SEs, each foot down twice. */
export const WALK_SEV = `sev 1
motion walk
se 0 SE_FOOT_L
se 1 SE_FOOT_R
event 5 0 1  # left heel
event 21 1 2
event 38 0 1
event 54 1 2
`;

/** Hips and both feet: the skeleton walk.sev's events are placed on. */
export const WALK_JOINTS: JointInfo[] = [sevJoint('Hips', -1), sevJoint('LeftFoot'), sevJoint('RightFoot')];

/** The motion the .sev of loadWalkWithSev is bound to. */
export const WALK_BINDING = { documentId: 'walk-1', path: '/p/walk.mtn' };

/**
 * Loads a still 60-frame walk (document walk-1 at /p/walk.mtn) into the document store and `sevText` as its .sev
 * (/p/walk.sev, bound to that motion), with no main process behind them.
 */
export function loadWalkWithSev(sevText: string, joints: JointInfo[] = WALK_JOINTS): void {
  documentStore.getState().load({
    ...WALK_BINDING,
    name: 'walk',
    kind: 'mtn',
    readOnly: false,
    motion: emptyMotion(60, joints),
  });
  sevStore.getState().load('/p/walk.sev', 'walk', sevText, WALK_BINDING);
}
