import type { SevEvent, SevSeDefinition } from '../../shared/sev/types';

/** An event with its index in the document, the number the selection, the undo steps and the SEV's problems use. */
export interface IndexedEvent {
  readonly event: SevEvent;
  readonly index: number;
}

/** The SE definitions of a document by index, and in index order (the SE pickers' list). */
export interface SeDefinitionsView {
  readonly byIndex: ReadonlyMap<number, SevSeDefinition>;
  readonly sorted: readonly SevSeDefinition[];
}

// Read once for each array: the SEV edits never write a document's arrays in place (shared/sev/edit.ts makes new
// ones), so an array's order and lookups hold as long as it does. The event list sorted the events and found each
// row's SE by a linear search (twice: its name and its picker's tooltip) at each of its renders, a click on a row
// among them (docs/architecture.md, "Renderer review, round 10").
const orders = new WeakMap<readonly SevEvent[], readonly IndexedEvent[]>();
const definitions = new WeakMap<readonly SevSeDefinition[], SeDefinitionsView>();
let reads = 0;

/** How many times an array of events or SE definitions was read whole here (tests). */
export function eventRowReads(): number {
  return reads;
}

/**
 * The events in frame order, ties in document order (as the serializer writes them), each with its document index.
 * The same frozen array, and the same entries, for the same array of events.
 */
export function eventsInFrameOrder(events: readonly SevEvent[]): readonly IndexedEvent[] {
  const cached = orders.get(events);
  if (cached) return cached;
  reads++;
  const order = events.map((event, index) => Object.freeze({ event, index }));
  order.sort((a, b) => a.event.frame - b.event.frame || a.index - b.index);
  const frozen = Object.freeze(order);
  orders.set(events, frozen);
  return frozen;
}

/** The SE definitions by index (the first of an index where a broken file repeats one) and sorted by index. */
export function seDefinitionsOf(ses: readonly SevSeDefinition[]): SeDefinitionsView {
  const cached = definitions.get(ses);
  if (cached) return cached;
  reads++;
  const byIndex = new Map<number, SevSeDefinition>();
  for (const d of ses) if (!byIndex.has(d.index)) byIndex.set(d.index, d);
  const view = Object.freeze({ byIndex, sorted: Object.freeze(ses.slice().sort((a, b) => a.index - b.index)) });
  definitions.set(ses, view);
  return view;
}

// The selection as a set, made once for each array of selected indices (the store sets a new array at each change):
// each event row asks it whether its event is selected, where `includes` would read the whole selection for each row.
const selectionSets = new WeakMap<readonly number[], ReadonlySet<number>>();

/** The selected event indices as a set: the same set for the same array. */
export function selectionSetOf(selected: readonly number[]): ReadonlySet<number> {
  let set = selectionSets.get(selected);
  if (!set) selectionSets.set(selected, (set = new Set(selected)));
  return set;
}
