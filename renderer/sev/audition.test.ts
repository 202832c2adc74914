import { describe, expect, it } from 'vitest';
import { eventsCrossed, eventsScrubbed } from './audition';

const events = [{ frame: 0 }, { frame: 5 }, { frame: 5 }, { frame: 20 }, { frame: 132 }];

describe('audition timing', () => {
  it('plays every event the playhead crossed since the last tick, each once, also when a tick skips frames', () => {
    expect(eventsCrossed(events, 4.6, 5.1)).toEqual([1, 2]);
    expect(eventsCrossed(events, 5.1, 6)).toEqual([]);
    expect(eventsCrossed(events, 1, 25)).toEqual([1, 2, 3]);
  });
  it('a loop back to the start plays the tail, then the head', () => {
    expect(eventsCrossed(events, 130.5, 0.4)).toEqual([4, 0]);
  });
  it('starting playback plays what sits under the playhead', () => {
    expect(eventsCrossed(events, null, 5)).toEqual([1, 2]);
    expect(eventsCrossed(events, null, 6)).toEqual([]);
  });
  it('a scrub plays the events it passes, either way, and a jump plays none', () => {
    const frames = events.map((e) => e.frame);
    const f = frames[1];
    expect(eventsScrubbed(events, f - 1, f)).toContain(1);
    expect(eventsScrubbed(events, f + 1, f)).toContain(1);
    expect(eventsScrubbed(events, f, f)).toEqual([]);
    expect(eventsScrubbed(events, f - 30, f)).toEqual([]);
    expect(eventsScrubbed(events, f, f + 1)).not.toContain(1);
  });
});
