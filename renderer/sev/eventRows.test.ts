import { describe, expect, it } from 'vitest';
import { addEvent, moveEvent, setSeDefinition } from '../../shared/sev/edit';
import { parseSevStrict } from '../../shared/sev/parse';
import { eventsByFrame } from '../../shared/sev/serialize';
import { eventRowReads, eventsInFrameOrder, seDefinitionsOf } from './eventRows';

// Events out of frame order, two on frame 5, SEs defined out of index order (docs/architecture.md, "Renderer review,
// round 10": the event list's order and SE lookups are read once for each array).
const TEXT =
  'sev 1\nmotion walk\nse 2 SE_C\nse 0 SE_A\nse 1 SE_B\nevent 9 1 -\nevent 5 0 3\nevent 2 2 -\nevent 5 2 -\n';

describe('the event list rows (eventRows)', () => {
  it('orders the events by frame, ties in document order, as the serializer does, each with its index', () => {
    const doc = parseSevStrict(TEXT);
    const order = eventsInFrameOrder(doc.events);
    expect(order.map((o) => o.index)).toEqual([2, 1, 3, 0]);
    expect(order.map((o) => o.event)).toEqual(eventsByFrame(doc.events));
    for (const o of order) expect(o.event).toBe(doc.events[o.index]);
    expect(Object.isFrozen(order)).toBe(true);
    expect(Object.isFrozen(order[0])).toBe(true);
  });

  it('reads an array of events or SE definitions once: the same views for the same array, new ones for an edit', () => {
    const doc = parseSevStrict(TEXT);
    const before = eventRowReads();
    const order = eventsInFrameOrder(doc.events);
    const ses = seDefinitionsOf(doc.ses);
    expect(eventRowReads() - before).toBe(2);
    // What a render of the list asks for again, as each click on a row renders it: nothing read.
    for (let k = 0; k < 5; k++) {
      expect(eventsInFrameOrder(doc.events)).toBe(order);
      expect(seDefinitionsOf(doc.ses)).toBe(ses);
    }
    expect(eventRowReads() - before).toBe(2);
    expect(ses.sorted.map((d) => d.name)).toEqual(['SE_A', 'SE_B', 'SE_C']);
    for (const d of doc.ses) expect(ses.byIndex.get(d.index)).toBe(d);
    expect(ses.byIndex.get(7)).toBeUndefined();

    // An edit is a new array, read anew; the SE definitions, untouched, are not.
    const moved = moveEvent(doc, 0, { frame: 1 });
    const next = eventsInFrameOrder(moved.events);
    expect(next).not.toBe(order);
    expect(next.map((o) => o.index)).toEqual([0, 2, 1, 3]);
    expect(seDefinitionsOf(moved.ses)).toBe(ses);
    const added = addEvent(moved, { frame: 5, se: 1, joint: null });
    expect(eventsInFrameOrder(added.events).map((o) => o.index)).toEqual([0, 2, 1, 3, 4]);
    const redefined = setSeDefinition(added, { index: 1, name: 'SE_D' });
    expect(seDefinitionsOf(redefined.ses).byIndex.get(1)?.name).toBe('SE_D');
    expect(eventRowReads() - before).toBe(5);
  });
});
