/**
 * Round 51 (docs/security.md): the message about a bad tuning file beside an opened motion names the file as its path
 * is, and a received folder's motion may be named with a bidi override: the message shows such characters as \uXXXX
 * (escapeControls), as main's replies do (electron/invokeReply.ts); a text that does not parse was said so already
 * (its FormatError quotes the path). Mutation that fails: adoptTuningFile returning main's reason unescaped.
 */
import { describe, expect, it } from 'vitest';
import { emptyMotion } from '../../shared/motion/types';
import { adoptTuningFile } from './motionTuning';

const RLO = '\u202e';
const path = `/ws/walk${RLO}ves.mtn.actguy-tuning.json`;

describe("a tuning file's message names a hidden character as \\uXXXX", () => {
  it("main's reason why it was not read", () => {
    const said = adoptTuningFile(
      { documentId: 'd1', tuning: { path, error: `${path}: it is a symbolic link to /elsewhere, outside the folder` } },
      emptyMotion(1, []),
    );
    expect(said).toBe(
      '/ws/walk\\u202eves.mtn.actguy-tuning.json: it is a symbolic link to /elsewhere, outside the folder',
    );
  });
});
