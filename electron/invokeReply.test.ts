/**
 * The reply envelope (electron/invokeReply.ts replyOf) clips what a failure quotes: a bad file's plain words too, not
 * only its message: without that, a file of a name of 20,000 characters (as an archive's entry may carry it) would come
 * back whole in `plain.file`. Mutation audit, round 3 (docs/testing.md): plainOf without its clipping fails this.
 */
import { expect, it } from 'vitest';
import { FormatError } from '../shared/errors';
import { replyOf } from './invokeReply';

it('clips a bad file’s plain words as it clips the message', async () => {
  // A name as a hostile archive's entry may carry it: no folder to strip.
  const file = `${'walk'.repeat(5000)}.mtn`;
  const reply = await replyOf('openMotion', { path: file }, () => {
    throw new FormatError('MTN', 'the header is too short', {}, file);
  });
  expect(reply.ok).toBe(false);
  if (reply.ok) return;
  const plain = reply.error.plain!;
  expect(reply.error.formatKind).toBe('MTN');
  for (const text of [reply.error.message, plain.file, plain.lead]) {
    expect(text.length).toBeLessThanOrEqual(16 * 1024 + '… (message shortened)'.length);
  }
  expect(plain.file.endsWith('… (message shortened)')).toBe(true);
});
