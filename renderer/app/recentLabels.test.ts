import { describe, expect, it } from 'vitest';
import type { RecentFile } from '../../shared/ipc';
import { recentLabels } from './recentLabels';

const file = (path: string, kind: RecentFile['kind'] = 'mtn'): RecentFile => ({
  path,
  name: path.replace(/^.*[\\/]/, '').replace(/\.(mtn|mt3|mar|actguy\.json)$/, ''),
  kind,
  openedAt: 1,
});

describe('recentLabels', () => {
  it('labels a file by its name alone while no other entry reads the same', () => {
    expect(recentLabels([file('/a/walk.mtn'), file('/a/cmu_01_01.mtn')]).map((l) => l.label)).toEqual([
      'walk.mtn',
      'cmu_01_01.mtn',
    ]);
  });

  it('tells two files of one name apart by their folders, with the whole path as the tooltip', () => {
    const labels = recentLabels([
      file('/tmp/ws/walk.mtn'),
      file('/home/me/assets/walk.mtn'),
      file('/x/walk.mt3', 'mt3'),
    ]);
    expect(labels.map((l) => l.label)).toEqual(['walk.mtn — ws', 'walk.mtn — assets', 'walk.mt3']);
    expect(labels[1].title).toBe('/home/me/assets/walk.mtn');
  });

  it('uses as many last folders as it takes, on Windows paths too', () => {
    expect(recentLabels([file('C:\\a\\out\\walk.mtn'), file('C:\\b\\out\\walk.mtn')]).map((l) => l.label)).toEqual([
      'walk.mtn — a/out',
      'walk.mtn — b/out',
    ]);
  });

  it('shows a folder name that hides or reorders text escaped', () => {
    const labels = recentLabels([file('/a/ev\u202eil/walk.mtn'), file('/b/walk.mtn')]);
    expect(labels[0].label).toBe('walk.mtn — ev\\u202eil');
    expect(labels[0].title).toBe('/a/ev\\u202eil/walk.mtn');
  });

  // Round 27: the fallback named the last folders whole, which read the same for both. Mutation that fails: the last
  // line of recentLabels back to `mine.join('/')` (each pair below gets one label twice).
  it('labels two entries no run of last folders tells apart by their whole paths, so no two read the same', () => {
    const entry = (path: string, name: string, kind: RecentFile['kind']): RecentFile => ({
      path,
      name,
      kind,
      openedAt: 1,
    });
    const pairs = [
      [entry('/x/walk.mtn', 'walk', 'mtn'), entry('/x/walk.MTN', 'walk', 'mtn')],
      [entry('/t/a\\b/walk.mtn', 'walk', 'mtn'), entry('/t/a/b/walk.mtn', 'walk', 'mtn')],
      [entry('/p/a.actguy.json', 'a', 'project'), entry('/p/a.ACTGUY.json', 'a', 'project')],
    ];
    for (const pair of pairs) {
      const labels = recentLabels(pair).map((l) => l.label);
      expect(new Set(labels).size, labels.join(' | ')).toBe(2);
    }
    expect(recentLabels(pairs[0]).map((l) => l.label)).toEqual(['walk.mtn — /x/walk.mtn', 'walk.mtn — /x/walk.MTN']);
    // Entries told apart by a folder keep the short label.
    expect(recentLabels([...pairs[0], entry('/y/walk.mtn', 'walk', 'mtn')]).map((l) => l.label)[2]).toBe(
      'walk.mtn — y',
    );
  });
});
