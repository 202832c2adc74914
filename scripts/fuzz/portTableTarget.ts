/**
 * Fuzz target `port-table`: the reader of /proc/net/tcp and tcp6 that names who holds the port `npm run web` asked
 * for (listenerUids, electron/loopback/portHolder.ts; docs/security.md round 40). Every text is read: an input is
 * accepted when the reader names a listener of the port (user ids: whole numbers, not negative), rejected when it
 * finds none (a line it cannot use is skipped, so a table whose listener line the mutation broke names nobody);
 * a throw or anything else returned is a defect.
 */
import { listenerUids } from '../../electron/loopback/portHolder';
import { mutateText, type Rng } from './mutate';
import { describeThrown, FuzzDefect, type FuzzTarget } from './judge';

const PORT = 47615;
const HEAD = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n';
const TOKENS = ['0A', '01', 'B9FF', '0100007F:B9FF', '00000000:0000', ':', ' ', '\n', '4294967295', '-1', '1e9', 'NaN'];

function seeds(): Uint8Array[] {
  const text = `${HEAD}   0: 0100007F:B9FF 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 4383490 1 0 100 0 0 10 0
   1: 0100007F:DD84 0100007F:B9FF 01 00000000:00000000 00:00000000 00000000  1000        0 4386257 1 0 20 4 32 16 8
`;
  const six = `${HEAD}   0: 00000000000000000000000001000000:B9FF 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 9 1 0 100 0 0 10 0
`;
  return [Buffer.from(text), Buffer.from(six)];
}

function mutate(rnd: Rng, seed: Uint8Array): Uint8Array {
  return Buffer.from(mutateText(rnd, Buffer.from(seed).toString('utf8'), TOKENS, 1 << 16));
}

function run(input: Uint8Array): 'accepted' | 'rejected' {
  let uids: number[];
  try {
    uids = listenerUids(PORT, Buffer.from(input).toString('utf8'));
  } catch (e) {
    throw new FuzzDefect('crash', describeThrown(e));
  }
  const bad = uids.find((u) => !Number.isInteger(u) || u < 0);
  if (bad !== undefined) throw new FuzzDefect('invalid', `returned ${bad} as a user id`);
  return uids.length > 0 ? 'accepted' : 'rejected';
}

export const portTableTarget: FuzzTarget = { name: 'port-table', ext: 'txt', seeds, mutate, run };
