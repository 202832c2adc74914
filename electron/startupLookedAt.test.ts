import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CompressClient } from './compressClient';
import { createPathPolicy } from './pathPolicy';
import { firstLaunchFiles, handedOverSeam } from './systemFiles';
import { SAMPLE_MTN, testHandlers } from './testing/handlerHarness';

/** createHandlers makes no compress call while it is set up: the grants are what is tested. */
const noCompress = {} as CompressClient;

// Round 33 (rounds 30-32's open item). The first launch's start-up motion was looked at by firstLaunchFiles
// (handedOverProblem) and granted a moment later by createHandlers with allowFile, which resolved the path again: a
// link put at the name in between granted where it led. firstLaunchFiles now gives the motion as it looked at it
// (lookedAtPath) and main has createHandlers grant it so (startupLookedAt). The swap is made by the look's seam.
// Mutations that fail: the grant without asJudged (the secret is granted); firstLaunchFiles giving the path as named
// (the motion named through a folder link is not granted as the page will ask for it).
describe("the first launch's start-up motion (round 33)", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'actguy-startup-')));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is granted as it was looked at: a link put at its name since grants nothing where it leads', () => {
    const real = join(dir, 'real');
    mkdirSync(real);
    // The user names the motion through a folder link of theirs: that is resolved, as the user named it.
    symlinkSync(real, join(dir, 'via'));
    const named = join(dir, 'via', 'walk.mtn');
    copyFileSync(SAMPLE_MTN, join(real, 'walk.mtn'));
    const secret = join(dir, 'secret.mtn');
    copyFileSync(SAMPLE_MTN, secret);

    const start = (swap: boolean) => {
      handedOverSeam.looked = (p) => {
        handedOverSeam.looked = () => undefined;
        if (!swap) return;
        rmSync(p);
        symlinkSync(secret, p);
      };
      try {
        const first = firstLaunchFiles(['/usr/bin/actguy', named], dir);
        expect(first.startupMotion).toBe(join(real, 'walk.mtn'));
        const policy = createPathPolicy();
        testHandlers({
          app: { workspaceRoot: null, startupPath: first.startupMotion! },
          startupLookedAt: true,
          policy,
          compress: noCompress,
        });
        return policy;
      } finally {
        handedOverSeam.looked = () => undefined;
      }
    };

    // As looked at: the motion, named through the folder link, is the user's pick and may be written.
    const kept = start(false);
    expect(kept.mayWrite(named)).toBe(true);
    expect(kept.isAllowed(secret)).toBe(false);

    // A link put at the name after the look: neither its target nor the link's name reads as the pick.
    const swapped = start(true);
    expect(swapped.isAllowed(secret)).toBe(false);
    expect(swapped.isAllowed(named)).toBe(false);
  });
});
