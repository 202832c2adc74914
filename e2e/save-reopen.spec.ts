import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import {
  toggleCurveKey,
  clickTraceRow,
  dragLockRow,
  freeRun,
  openThroughPicker,
  screenshotOf,
  selectJoint,
  waitForCompression,
  waitForDocument,
} from './ui';
import { readMtn } from '../shared/mtn/read';
import { compressMotion } from '../shared/compress/compress';
import { writeMar } from '../shared/mar/write';
import { KeyFlag, MotionFlag, jointFlagsAt, translationFlagsAt } from '../shared/motion/types';

test('save writes keys, locks, trace keys and flags into the .mtn; reopening shows them', async ({
  page,
  workspace,
  appMode,
  saveScreenshot,
}, testInfo) => {
  test.skip(appMode === 'electron', 'reopening uses the in-app picker of the loopback transport');
  await waitForDocument(page);
  const file = workspace.path('walk.mtn');
  const original = readMtn(readFileSync(file));
  const start = freeRun(readFileSync(file), 5);
  const head = original.joints.findIndex((j) => j.name === 'Head');
  const keyFrame = start + 1;
  const traceFrame = start + 3;

  await selectJoint(page, 'Head');
  await toggleCurveKey(page, keyFrame);
  await expect(page.getByTestId('curve-key-count')).toHaveText(/· \d+ user$/);
  await dragLockRow(page, start, start + 4);
  await clickTraceRow(page, traceFrame);
  const mirrorUpper = page.getByTestId('flag-mirror-upper');
  const mirrorWas = await mirrorUpper.isChecked();
  await mirrorUpper.setChecked(!mirrorWas);
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');
  await waitForCompression(page);
  await screenshotOf(page.getByTestId('curve-view'), testInfo.project.name, 'curves-after-edits');
  await screenshotOf(page.getByTestId('timeline'), testInfo.project.name, 'timeline-after-edits');
  await saveScreenshot('main-window-after-edits');

  await page.getByTestId('curve-canvas').hover();
  await page.keyboard.press('Control+s');
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');
  await expect(page.getByTestId('message-info').filter({ hasText: 'Saved' })).toHaveCount(1);

  // The file on disk has the edits in its key info and header flags.
  const saved = readMtn(readFileSync(file));
  expect(jointFlagsAt(saved, keyFrame, head) & KeyFlag.KEY).toBe(KeyFlag.KEY);
  for (let f = start; f <= start + 4; f++) expect(jointFlagsAt(saved, f, head) & KeyFlag.LOCK).toBe(KeyFlag.LOCK);
  expect(translationFlagsAt(saved, traceFrame) & KeyFlag.TRACE).toBe(KeyFlag.TRACE);
  expect((saved.flags & MotionFlag.MIRROR_UPPER) !== 0).toBe(!mirrorWas);
  // Nothing else changed: the float data is the original's.
  expect(Buffer.from(saved.rotation.buffer).equals(Buffer.from(original.rotation.buffer))).toBe(true);

  // Reopen from disk and find the edits in the UI.
  await openThroughPicker(page, 'walk.mtn');
  await waitForDocument(page);
  await expect(page.getByTestId('lock-item').filter({ hasText: `Head frames ${start}–${start + 4}` })).toHaveCount(1);
  await expect(page.getByTestId('trace-item').filter({ hasText: new RegExp(`^${traceFrame}`) })).toHaveCount(1);
  await expect(page.getByTestId('flag-mirror-upper')).toBeChecked({ checked: !mirrorWas });
  await selectJoint(page, 'Head');
  await expect(page.getByTestId('curve-canvas')).toHaveAttribute(
    'data-user-key-frames',
    new RegExp(`(^|,)${keyFrame}(,|$)`),
  );
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');
});

test('export writes an .mt3 through the in-app picker, and it reopens read-only', async ({
  page,
  workspace,
  appMode,
}) => {
  test.skip(appMode === 'electron', 'in-app picker is the loopback transport');
  await waitForDocument(page);
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-export').click();
  const picker = page.getByTestId('file-picker');
  await expect(picker.getByTestId('picker-name')).toHaveValue('walk.mt3');
  await picker.getByTestId('picker-ok').click();
  await expect(page.getByTestId('message-info').filter({ hasText: 'Exported' })).toHaveCount(1);
  const bytes = readFileSync(workspace.path('walk.mt3'));
  expect(bytes.byteLength).toBe(Number(await page.getByTestId('stat-mt3-bytes').innerText()));

  // The exported motion opens read-only (skeleton: walk.mtn beside it), decoded, not editable.
  await openThroughPicker(page, 'walk.mt3');
  await expect(page.getByTestId('doc-name')).toHaveText('walk (read-only)');
  await expect(page.getByTestId('message-info').filter({ hasText: 'read-only' })).toHaveCount(1);
  await expect(page.getByTestId('tol-rotation')).toBeDisabled();
  await page.keyboard.press('k');
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');
  await expect(page.getByTestId('viewport-canvas')).toBeVisible();
});

test('a .mar entry opens read-only after choosing the entry and a skeleton', async ({ page, workspace, appMode }) => {
  test.skip(appMode === 'electron', 'in-app picker is the loopback transport');
  await waitForDocument(page);
  const walk = readMtn(readFileSync(workspace.path('walk.mtn')));
  const mt3 = compressMotion(walk, {
    positionTolerance: 0.5,
    rotationToleranceDeg: 0.5,
    offsetTolerance: 0.5,
    name: 'walk',
  });
  // No anim.mtn beside it, so the app asks for a skeleton.
  writeFileSync(workspace.path('anim.mar'), writeMar([mt3.bytes]));

  await openThroughPicker(page, 'anim.mar');
  const question = page.getByTestId('confirm-dialog');
  await expect(question).toContainText('holds 1 motion.');
  await question.getByTestId('confirm-0').click();
  await expect(question).toContainText('Skeleton needed');
  await question.getByTestId('confirm-choose').click();
  const picker = page.getByTestId('file-picker');
  await picker
    .getByTestId('picker-file')
    .filter({ hasText: /^walk\.mtn/ })
    .click();
  await picker.getByTestId('picker-ok').click();

  await expect(page.getByTestId('doc-name')).toContainText('anim:');
  await expect(page.getByTestId('doc-name')).toContainText('(read-only)');
  await selectJoint(page, 'LeftFoot');
  await expect(page.getByTestId('tol-position')).toBeDisabled();
});

test('the in-app picker says when the workspace listing left files out', async ({ page, workspace, appMode }) => {
  test.skip(appMode === 'electron', 'in-app picker is the loopback transport');
  await waitForDocument(page);
  const deep = workspace.path('1/2/3/4/5/6/7/8/9');
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(deep, 'hidden-by-depth.mtn'), '');
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-open').click();
  const picker = page.getByTestId('file-picker');
  await expect(picker.getByTestId('picker-incomplete')).toHaveText(
    'Folders more than 8 levels below the workspace are not listed.',
  );
  await expect(picker.getByTestId('picker-file').filter({ hasText: 'walk.mtn' })).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath('picker-incomplete.png') });
  await page.keyboard.press('Escape');
  await expect(picker).toHaveCount(0);
});
