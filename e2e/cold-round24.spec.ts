/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * twenty-fourth round).
 */
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { waitForDocumentAt1280 } from './ui';
import { openSampleProjectAt1280 } from './sev-ui';

/** Lines of an element's text: the distinct tops of its text's boxes. */
async function textLines(el: Locator): Promise<number> {
  return el.evaluate((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
  });
}

/**
 * No project, every panel shown at 1280x800: the SE column's note on the missing SE tables was kept sticky at the
 * column's foot (round 22) and covered what scrolled under it, the heading "SE 0 floor/wall variants" among it. The
 * note is under the column now, out of its scroll. Mutation that fails: the note back inside the column (SeTable's
 * own), sticky (the heading brought to the column's foot is under the note).
 */
test('with no project the SE tables note covers nothing in the SE column', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  await page.getByTestId('menu-view').click();
  await page.getByTestId('menu-show-all-panels').click();
  const note = page.getByTestId('sev-tables-missing');
  await expect(note).toBeVisible();
  const head = page.locator('.sev-variants-head');
  await expect(head).toContainText('floor/wall variants');
  // The heading as the column shows it scrolled to it from above: at the column's foot.
  const hit = await head.evaluate((el) => {
    el.scrollIntoView({ block: 'nearest' });
    const r = el.getBoundingClientRect();
    // Its top, middle and foot: the note covered its lower half.
    for (const y of [r.top + 2, r.top + r.height / 2, r.bottom - 2]) {
      const at = document.elementFromPoint(r.left + 30, y);
      if (!at?.closest('.sev-variants-head')) return `${Math.round(y - r.top)} px down: ${at?.textContent ?? ''}`;
    }
    return 'heading';
  });
  expect(hit, 'what is seen where the heading is').toBe('heading');
  // The note itself whole, in the SE column's side of the editor.
  const side = (await page.locator('.sev-defs-side').boundingBox())!;
  const box = (await note.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(side.y + side.height + 0.5);
  expect(await note.evaluate((e) => e.scrollHeight <= e.clientHeight + 1)).toBe(true);
  await saveScreenshot('round24-no-project-all-panels-1280x800');
  expect(pageErrors).toEqual([]);
});

/**
 * Project mode at 1280x800: the timeline's hint wrapped for its last word ("there") and the Aliases heading took two
 * lines of the 250 px project column. Each reads on one line now; what an alias is is in the heading's title. The
 * lock bars' names are cut to the bars ("LeftF…"): the timeline's accessible name names the locks in view whole.
 * Mutations that fail: the hint's old words (two lines); the old heading; paintLockRow not setting the name.
 */
test('in Project mode at 1280x800 the timeline hint and the Aliases heading are one line each', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await page.keyboard.press('Control+3');
  const hint = page.getByTestId('timeline-hint');
  await expect(hint).toContainText('Right-click: key, lock, trace there');
  await expect.poll(() => textLines(hint), { message: 'lines of the timeline hint' }).toBe(1);
  const aliases = page.getByTestId('project-aliases-head');
  await expect(aliases).toHaveText(/^Aliases \(archive entries 4\.\.4\)$/);
  await expect(aliases).toHaveAttribute('title', /a motion's data under another name/);
  expect(await textLines(aliases), 'lines of the Aliases heading').toBe(1);
  // The sample's walk locks each foot in turn.
  await expect(page.getByTestId('timeline-canvas')).toHaveAttribute(
    'aria-label',
    /Locks in view: LeftFoot at frames \d+–\d+, RightFoot at frames \d+–\d+, /,
  );
  await expect(page.getByRole('img', { name: /LeftFoot at frames 5–12/ })).toHaveCount(1);
  expect(pageErrors).toEqual([]);
});

/**
 * The keyboard: the viewport's collapse button, at its header's right end, came after the playback bar under the
 * view (it was the panel's last element). It comes after Frame all now, the header's last control, and the playback
 * bar after it; the panel's own order is unchanged. Mutation that fails: RowArea's buttons back after the panel
 * (no portal into the header: Tab from Frame all goes to "First frame").
 */
test('Tab from the viewport header reaches its collapse button before the playback bar', async ({
  page,
  electronApp,
  pageErrors,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  const toggle = page.getByTestId('panel-toggle-viewport');
  await page.getByTestId('frame-all').focus();
  await page.keyboard.press('Tab');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'First frame', exact: true })).toBeFocused();
  // Where it shows: the header's right end, as before.
  const header = (await page.getByTestId('viewport').locator('.panel-header').boundingBox())!;
  const box = (await toggle.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(header.y);
  expect(box.y + box.height).toBeLessThanOrEqual(header.y + header.height);
  expect(header.x + header.width - (box.x + box.width)).toBeLessThan(12);
  // Still collapses and restores, the keyboard kept on it.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('area-viewport')).toHaveAttribute('data-state', 'collapsed');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('area-viewport')).not.toHaveAttribute('data-state', 'collapsed');
  expect(pageErrors).toEqual([]);
});
