import { describe, expect, it } from 'vitest';
import { listenerUids, portHolders, portTakenMessage } from './portHolder';

// Two listeners (one of user 1001 on 127.0.0.1:47615, one of root on 0.0.0.0:2024) and a connection to 47615.
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0100007F:B9FF 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 4383490 1 0 100 0 0 10 0
   1: 00000000:07E8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1062 1 0 100 0 0 10 0
   2: 0100007F:DD84 0100007F:B9FF 01 00000000:00000000 00:00000000 00000000  1000        0 4386257 1 0 20 4 32 16 8
`;

describe('who holds the port npm run web asked for (docs/security.md round 40)', () => {
  it('reads the listening sockets of a port and their owners from /proc/net/tcp', () => {
    expect(listenerUids(47615, TCP)).toEqual([1001]);
    expect(listenerUids(2024, TCP)).toEqual([0]);
    expect(listenerUids(56708, TCP)).toEqual([]); // a connection's end, not a listener
    expect(portHolders(47615, (p) => (p.endsWith('tcp') ? TCP : ''))).toEqual([1001]);
    expect(
      portHolders(47615, () => {
        throw new Error('ENOENT');
      }),
    ).toBeNull();
  });

  it("says another user's program plainly, and only then", () => {
    const theirs = portTakenMessage(47615, 40001, [1001], 1000, true);
    expect(theirs).toMatch(
      /^port 47615 is held by a program of another user \(user id 1001\), not by ActGuy, so this run serves on port 40001\. A tab or bookmark of http:\/\/127\.0\.0\.1:47615\/ now reaches that program, which can show any page there/,
    );
    expect(theirs).toContain('copies of unsaved work are kept for this run only');
    for (const holders of [[1000], [0], [], null])
      expect(portTakenMessage(47615, 40001, holders, 1000, false)).toBe(
        "port 47615 is in use, so this run serves on port 40001: the browser keeps ActGuy's preferences per address, so this window starts without those saved on port 47615",
      );
  });
});
