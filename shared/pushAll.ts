/**
 * Appends every item of `items` to `to`, one at a time. `to.push(...items)` passes each item as an argument, and a
 * list of a few hundred thousand (the errors of a .sev with that many events past its motion's end) overflows the
 * stack (docs/security.md, "Readers linear in their input").
 */
export function pushAll<T>(to: T[], items: readonly T[]): void {
  for (let i = 0; i < items.length; i++) to.push(items[i]);
}
