import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DocumentStateReport } from '../shared/ipc/documents';
import { unsavedSentence } from '../shared/unsaved';
import type { CompressClient } from './compressClient';
import type { DialogPort } from './dialogPort';
import { dispatchInvoke } from './invokeReply';
import { testHandlers } from './testing/handlerHarness';

describe('reportDocumentState (main close confirmation)', () => {
  it('passes the unsaved motion, SEV and project names to main, which names them all on close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'actguy-docstate-'));
    try {
      const seen: DocumentStateReport[] = [];
      const handlers = testHandlers({
        app: { samplePath: join(dir, 'walk.mtn'), startupPath: join(dir, 'walk.mtn'), workspaceRoot: dir },
        recentDir: dir,
        compress: {} as CompressClient, // not used by this member
        dialogs: {} as DialogPort,
        onDocumentState: (r) => seen.push(r),
      });
      const reply = await dispatchInvoke(handlers, 'reportDocumentState', {
        documentId: 'd1',
        documentName: 'walk',
        dirty: true,
        unsaved: ['walk.mtn', 'walk.sev', 'the project', 42],
      });
      expect(reply).toMatchObject({ ok: true });
      expect(seen).toEqual([
        { documentId: 'd1', documentName: 'walk', dirty: true, unsaved: ['walk.mtn', 'walk.sev', 'the project'] },
      ]);
      expect(unsavedSentence(seen[0].unsaved!, seen[0].documentName!)).toBe(
        'walk.mtn, walk.sev and the project have unsaved changes.',
      );
      // an older renderer without the list: the motion name is used
      await dispatchInvoke(handlers, 'reportDocumentState', { documentId: 'd1', documentName: 'walk', dirty: true });
      expect(seen[1].unsaved).toBeUndefined();
      expect(unsavedSentence(seen[1].unsaved ?? [], seen[1].documentName!)).toBe('walk has unsaved changes.');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
