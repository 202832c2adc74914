import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openProject } from './sev-ui';
import { makeKeyEdit, openThroughPicker, waitForDocument } from './ui';

test('a corrupt file gives a readable message and the open document stays', async ({
  page,
  workspace,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocument(page);
  await makeKeyEdit(page, 'LeftFoot');
  const keysBefore = await page.getByTestId('stat-total-keys').innerText();

  // Right magic and version, a header that promises far more data than the file has.
  const bytes = new Uint8Array(64);
  bytes.set([0x4d, 0x54, 0x4e, 0x00, 1, 0, 0, 0, 10, 0, 0, 0, 3, 0, 0, 0]);
  writeFileSync(workspace.path('broken.mtn'), bytes);

  // The edits are unsaved: the question comes first; go on, the open then fails.
  await openThroughPicker(page, 'broken.mtn', { discardEdits: true });
  const error = page.getByTestId('message-error');
  // Plain words first: which file, what is wrong, that nothing changed, what to do; the reader's precise
  // message (kind, place, sizes) after them for an expert.
  await expect(error).toContainText(
    'Could not open broken.mtn: it ends too soon: part of its data is missing (a copy or save that stopped part ' +
      'way?). Nothing was changed; walk stays open. Copy it again, or export it again from the tool that made it; ' +
      'or choose another file with File › Open… (Ctrl+O).',
  );
  const text = await error.innerText();
  expect(text.indexOf('Details: ')).toBeGreaterThan(text.indexOf('Nothing was changed'));
  expect(text.slice(text.indexOf('Details: '))).toMatch(/broken\.mtn \[MTN\] \(header\): file is 64 bytes/);
  await saveScreenshot('corrupt-file-message');

  // Still the same document, with its edits and stats.
  await expect(page.getByTestId('doc-name')).toHaveText('walk');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect(page.getByTestId('stat-total-keys')).toHaveText(keysBefore);
  await expect(page.getByTestId('timeline-selected')).toHaveText('LeftFoot');
  expect(pageErrors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
});

test('a failed save says why and keeps the edits', async ({ page, workspace }) => {
  await waitForDocument(page);
  await makeKeyEdit(page, 'RightFoot');
  const userKeys = await page.getByTestId('curve-key-count').innerText();

  // A folder where the file was: the atomic rename cannot replace it (even as root).
  rmSync(workspace.path('walk.mtn'));
  mkdirSync(workspace.path('walk.mtn'));
  await page.keyboard.press('Control+s');
  // Main sees walk.mtn is not the file the open read and asks first; Save anyway goes on to the write that fails.
  await page.getByTestId('confirm-dialog').getByTestId('confirm-overwrite').click();
  const error = page.getByTestId('message-error');
  await expect(error).toContainText('Could not save');
  await expect(error).toContainText('walk.mtn');
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await expect(page.getByTestId('curve-key-count')).toHaveText(userKeys);
});

test('a corrupt .mar, project, .sev and SE table each lead with plain words; the precise place follows', async ({
  page,
  workspace,
  electronApp,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  // A .mar with flipped magic bytes.
  const mar = new Uint8Array(64);
  mar.set([0x12, 0xbe, 0xad, 0x9e, 23, 0, 0, 0, 1, 0, 0, 0, 32, 0, 0, 0]);
  writeFileSync(workspace.path('stage.mar'), mar);
  await openThroughPicker(page, 'stage.mar');
  const error = page.getByTestId('message-error');
  await expect(error).toContainText(
    'Could not open stage.mar: it is not a motion archive (.mar): its first bytes are not those of one',
  );
  await expect(error).toContainText('Nothing was changed; walk stays open.');
  await expect(error).toContainText(/Details: .*stage\.mar \[MAR\] \(header, offset 0\): bad magic/);
  await page.getByTestId('message-dismiss').click();

  // A project cut off part way through its JSON.
  writeFileSync(
    workspace.path('cut.actguy.json'),
    readFileSync(workspace.path('sample.actguy.json'), 'utf8').slice(0, 300),
  );
  await openProject(page, electronApp, workspace, 'cut.actguy.json');
  await expect(error).toContainText(
    /^Could not read cut\.actguy\.json as a project: it ends too soon at line \d+: part of its data is missing/,
  );
  await expect(error).toContainText('The file is unchanged');
  await expect(error).toContainText(/Details: .*cut\.actguy\.json:\d+:\d+: not valid JSON/);
  await expect(page.getByTestId('project-problem-plain')).toContainText('cut.actguy.json: it ends too soon');
  // The tuner keeps walk, and the sound-events panel its walk.sev beside it (it said "walk has no .sev").
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  await expect(page.getByTestId('sev-none')).toHaveCount(0);
  await expect(page.getByTestId('sev-event-row').first()).toBeVisible();
  await saveScreenshot('corrupt-project-1280x800');
  await page.getByTestId('message-dismiss').click();

  // The sample project with a .sev that is not text and an se_define.h that is not text.
  const sev = readFileSync(workspace.path('walk.sev'));
  writeFileSync(workspace.path('walk.sev'), Buffer.concat([sev.subarray(0, 40), Buffer.from([0xff, 0xfe, 0x0a])]));
  writeFileSync(workspace.path('se_define.h'), Buffer.from([0x23, 0xff, 0x00, 0x0a]));
  await openProject(page, electronApp, workspace, 'sample.actguy.json');
  await expect(error).toContainText(/^Could not open walk\.sev: it holds bytes that are not text at line \d+/);
  await expect(error).toContainText('The file is unchanged.');
  const tableProblem = page.getByTestId('project-problem').filter({ hasText: 'se_define.h' }).first();
  await expect(tableProblem).toContainText('se_define.h: it holds bytes that are not text at line 1');
  await saveScreenshot('corrupt-sev-table-1280x800');
});

test('a .sev that cannot be read is never replaced by an empty one: the editor says why and offers no Create', async ({
  page,
  workspace,
  electronApp,
}) => {
  await waitForDocument(page);
  const sev = readFileSync(workspace.path('walk.sev'));
  // Mostly a good .sev, with a comment in another encoding (bytes that are not UTF-8).
  const broken = Buffer.concat([sev, Buffer.from('# pas \xe9t\xe9\n', 'latin1')]);
  writeFileSync(workspace.path('walk.sev'), broken);
  await openProject(page, electronApp, workspace, 'sample.actguy.json');
  await expect(page.getByTestId('message-error')).toContainText(/^Could not open walk\.sev: it holds bytes/);
  // The editor used to say "walk has no .sev" and offer "Create walk.sev", which started an empty .sev there (and
  // Save SEV wrote it over the file). It now says the file is there but unreadable, and offers no Create.
  await expect(page.getByTestId('sev-unreadable')).toContainText(
    'walk.sev is there but cannot be read, so its events are not shown and nothing will be written over it',
  );
  await expect(page.getByTestId('sev-create')).toHaveCount(0);
  await expect(page.getByTestId('sev-none')).toHaveCount(0);
  await page.keyboard.press('Control+s');
  // Checked once the save is over (its message shown), not after a fixed wait: on a loaded machine half a second
  // passed before the save had started, so the check passed whatever the save went on to write.
  await expect(page.getByTestId('message-info').filter({ hasText: /^Saved .*walk\.mtn/ })).toHaveCount(1);
  expect(readFileSync(workspace.path('walk.sev')).equals(broken), 'walk.sev as it was').toBe(true);
});
