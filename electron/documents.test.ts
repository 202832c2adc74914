/**
 * The open documents as the handlers keep them (documents.ts): `require` names a document by the id main gave it,
 * and nothing longer than any id main makes is looked up.
 */
import { describe, expect, it } from 'vitest';
import { DocumentTable } from './documents';

describe('DocumentTable.require', () => {
  it('answers an open document by its id and marks it the most recently used', () => {
    const evicted: string[] = [];
    const table = new DocumentTable((id) => evicted.push(id), 2);
    table.set('a', { path: '/a.mtn', name: 'a' });
    table.set('b', { path: '/b.mtn', name: 'b' });
    expect(table.require('a').name).toBe('a');
    table.set('c', { path: '/c.mtn', name: 'c' });
    expect(evicted).toEqual(['b']);
  });

  it('an id over 64 characters names no document, even one kept under it', () => {
    const table = new DocumentTable(() => {});
    const at = 'd'.repeat(64);
    const over = 'd'.repeat(65);
    table.set(at, { path: '/at.mtn', name: 'at' });
    table.set(over, { path: '/over.mtn', name: 'over' });
    expect(table.require(at).name).toBe('at');
    expect(() => table.require(over)).toThrow(`document ${at}… is not open (open or import a motion first)`);
  });
});
