import { describe, expect, it } from 'vitest';
import { pieceOfWork, pieceOfWorkSync } from './pieceOfWork';

/**
 * The bound of one piece of work names the piece when it runs out, and a piece that ends in time gives its result
 * (docs/testing.md, "Tests under load, round 6"). The hung pieces here never end on their own: the bound ends them
 * whatever the machine's load, so no duration is asserted.
 */
describe('pieceOfWork', () => {
  it('a promise that never settles fails naming the piece', async () => {
    await expect(pieceOfWork('the answer that never comes', new Promise(() => {}), 50)).rejects.toThrow(
      'still pending after 0.05 s: the answer that never comes',
    );
  });

  it('a settled promise gives its value', async () => {
    await expect(pieceOfWork('a quick answer', Promise.resolve(7), 60_000)).resolves.toBe(7);
  });
});

describe('pieceOfWorkSync', () => {
  it('a child that never ends is stopped at the bound and fails naming the piece', () => {
    expect(() =>
      pieceOfWorkSync('a child that never ends', process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {}, 500),
    ).toThrow('still pending after 0.5 s: a child that never ends');
  });

  it("a child that ends gives its status and output, read to the end (the pipes' close)", () => {
    const r = pieceOfWorkSync('a child that ends', process.execPath, [
      '-e',
      'process.stderr.write("said"); process.stdout.write("out"); process.exitCode = 3',
    ]);
    expect(r.status).toBe(3);
    expect(r.stdout).toBe('out');
    expect(r.stderr).toBe('said');
  });
});
