import { describe, expect, it, vi } from 'vitest';
import { createNativeDialogPort } from './nativeDialogs';

/** Electron's dialogs, each on screen until the test answers it. */
const fake = vi.hoisted(() => ({ shown: [] as { kind: string; answer: (r: unknown) => void }[] }));
vi.mock('electron', () => {
  const show = (kind: string) => () =>
    new Promise((answer) => {
      fake.shown.push({ kind, answer });
    });
  return {
    dialog: {
      showOpenDialog: show('open'),
      showSaveDialog: show('save'),
      showMessageBox: show('confirm'),
    },
  };
});

const filters = [{ name: 'Motion (.mtn)', extensions: ['mtn'] }];

describe('native dialogs (round 20)', () => {
  // Mutation that fails: the port without oneAtATime (each ask shows its dialog at once).
  it('one at a time: an ask while a dialog is on screen is answered as cancelled and shows nothing; the next one after it shows', async () => {
    const port = createNativeDialogPort(() => null);
    const first = port.chooseFileToSave({ title: 'Save motion as', filters });
    await vi.waitFor(() => expect(fake.shown).toHaveLength(1));
    expect(await port.chooseFileToOpen({ title: 'Open motion', filters })).toBeNull();
    expect(await port.chooseFilesToOpen!({ title: 'Import', filters })).toBeNull();
    expect(
      await port.confirm({ title: 'Discard?', message: 'm', confirmLabel: 'Discard', cancelLabel: 'Cancel' }),
    ).toBe(false);
    expect(fake.shown.map((d) => d.kind)).toEqual(['save']);
    fake.shown[0].answer({ canceled: false, filePath: '/home/u/walk.mtn' });
    expect(await first).toBe('/home/u/walk.mtn');

    const next = port.chooseFileToOpen({ title: 'Open motion', filters });
    await vi.waitFor(() => expect(fake.shown).toHaveLength(2));
    fake.shown[1].answer({ canceled: false, filePaths: ['/home/u/run.mtn'] });
    expect(await next).toBe('/home/u/run.mtn');
  });

  it('a dialog that fails frees the next one', async () => {
    const port = createNativeDialogPort(() => null);
    const failing = port.confirm({ title: 'Discard?', message: 'm', confirmLabel: 'Discard', cancelLabel: 'Cancel' });
    await vi.waitFor(() => expect(fake.shown).toHaveLength(3));
    // Electron rejects a dialog it cannot show; the rejection reaches the handler, and the port is free again.
    const shown = fake.shown[2];
    shown.answer(Promise.reject(new Error('no display')));
    await expect(failing).rejects.toThrow('no display');
    const next = port.chooseFileToSave({ title: 'Save', filters });
    await vi.waitFor(() => expect(fake.shown).toHaveLength(4));
    fake.shown[3].answer({ canceled: true });
    expect(await next).toBeNull();
  });
});
