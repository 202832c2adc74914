import { describe, expect, it } from 'vitest';
import type { BuildStatus } from '../../shared/ipc/project';
import type { BuildReport } from '../../shared/project/plan';
import { writtenRows } from './buildOutputs';

const report = (budget?: number): BuildReport =>
  ({
    outputs: { mar: { path: '/o/s.mar', bytes: 4096 }, sar: { path: '/o/s.sar', bytes: 300 }, report: '/o/s.json' },
    motions: [{ seSlots: 2 }, { seSlots: 1 }],
    totals: { motions: 2, mt3Bytes: 3072, events: 5 },
    ...(budget ? { budget: { marBytes: budget } } : {}),
  }) as unknown as BuildReport;

const status = (r: BuildReport, writtenBytes?: number[]): BuildStatus =>
  ({ written: ['/o/s.mar', '/o/s.sar', '/o/s.json', '/o/walk.res8'], writtenBytes, report: r }) as BuildStatus;

describe('writtenRows', () => {
  it('gives each file its size, the .mar the motions’ share and the .sar its events', () => {
    const rows = writtenRows(status(report(), [4096, 300, 2048, 10]));
    expect(rows.map((r) => [r.name, r.bytes])).toEqual([
      ['s.mar', 4096],
      ['s.sar', 300],
      ['s.json', 2048],
      ['walk.res8', 10],
    ]);
    expect(rows[0].holds).toBe('2 motions: 3.0 KiB (75.0%); the rest is the header and entry table');
    expect(rows[0].overBudget).toBeNull();
    expect(rows[1].holds).toBe('sound events: 5 events, 3 SE slots');
    expect(rows[3].holds).toMatch(/MSH export/);
  });
  it('sets the .mar against the budget: what is left, or how much it is over', () => {
    expect(writtenRows(status(report(8192), [4096]))[0]).toMatchObject({
      holds: expect.stringMatching(/\. Budget 8\.0 KiB: 50\.0% used, 4\.0 KiB to spare$/),
      overBudget: false,
    });
    expect(writtenRows(status(report(3072), [4096]))[0]).toMatchObject({
      holds: expect.stringMatching(/133\.3% used, 1\.0 KiB over$/),
      overBudget: true,
    });
  });
  it('lists an up-to-date build’s outputs, left as they were, with their sizes', () => {
    const s = {
      upToDate: true,
      written: [],
      report: null,
      unchanged: [
        { path: '/o/s.mar', bytes: 4096 },
        { path: '/o/s.json', bytes: null },
      ],
    } as unknown as BuildStatus;
    expect(writtenRows(s).map((r) => [r.name, r.bytes, r.unchanged])).toEqual([
      ['s.mar', 4096, true],
      ['s.json', null, true],
    ]);
    expect(writtenRows(status(report(), [4096])).every((r) => !r.unchanged)).toBe(true);
  });
  it('falls back to the report’s sizes when the build gave none, and gives none it does not know', () => {
    expect(writtenRows(status(report())).map((r) => r.bytes)).toEqual([4096, 300, null, null]);
  });
});
