/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * twenty-second round).
 */
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { clickTraceRow, undoLabel, waitForDocumentAt1280 } from './ui';
import { chooseFile, openSampleProjectAt1280 } from './sev-ui';

/** How far `inner` runs past `outer`'s visible box (its client box), in pixels on the worst side; 0 when inside. */
async function overrun(inner: Locator, outer: Locator): Promise<number> {
  const box = (await inner.boundingBox())!;
  const area = await outer.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left + el.clientLeft, top: r.top + el.clientTop, width: el.clientWidth, height: el.clientHeight };
  });
  return Math.max(
    0,
    area.left - box.x,
    area.top - box.y,
    box.x + box.width - (area.left + area.width),
    box.y + box.height - (area.top + area.height),
  );
}

/** Whether the element's own text is cut ("sampl…"): its content is wider than its box. */
async function textCut(el: Locator): Promise<boolean> {
  return el.evaluate((e) => e.scrollWidth > e.clientWidth);
}

/**
 * The animator stepped the position tolerance with ↑ and then clicked the timeline's trace row: the trace key's undo
 * step was made on pointerdown, before the field's blur applied the tolerance, so Ctrl+Z took back the tolerance
 * first. A press outside the field now applies it first. Mutation that fails: TypedDecimalField without its
 * pointerdown watch (the first undo reads "Undo Set position tolerance to 0.55").
 */
test('a tolerance stepped then a trace key clicked undo in the reverse order they were made', async ({
  page,
  electronApp,
  pageErrors,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  const field = page.getByTestId('tol-position');
  await field.click();
  await page.keyboard.press('ArrowUp');
  await expect(field).toHaveValue('0.55');
  await clickTraceRow(page, 40);
  expect(await undoLabel(page)).toBe('Undo Add trace key (frame 40)');
  await page.keyboard.press('Control+z');
  expect(await undoLabel(page)).toBe('Undo Set position tolerance to 0.55');
  await expect(field).toHaveValue('0.55');
  await page.keyboard.press('Control+z');
  await expect(field).toHaveValue('0.5');
  expect(pageErrors).toEqual([]);
});

/**
 * With no project open at 1280x800: the SE column's note on the missing SE tables was cut by the panel's foot, and
 * Ctrl+B said "Open a project first (File › Open Project…)." without the key, and the warning stayed over the
 * viewport after a project was opened. Mutations that fail: the note's sticky rule taken out of sev.css (it runs past
 * the column); the old text (no Ctrl+Shift+O); buildArchives's projectStore subscription taken out (the warning stays).
 */
test('with no project, the SE tables note shows whole and Ctrl+B says how to open one, then goes', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  await page.keyboard.press('Control+2');
  const note = page.getByTestId('sev-tables-missing');
  await expect(note).toBeVisible();
  // The SE column's side: the note is under the column, out of its scroll, since round 24.
  const column = page.locator('.sev-defs-side');
  expect(await overrun(note, column), 'the SE tables note is cut by its column').toBe(0);
  // A shorter window, the column shorter still: the note stays whole at its foot.
  if (!electronApp) {
    await page.setViewportSize({ width: 1280, height: 720 });
    await expect.poll(() => overrun(note, column), { message: 'the SE tables note is cut at 1280x720' }).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  await page.keyboard.press('Control+b');
  const warning = page.getByTestId('message-warning').filter({ hasText: 'Build Archives needs a project' });
  await expect(warning).toContainText('Ctrl+Shift+O');
  await page.keyboard.press('Control+b');
  await expect(warning).toHaveCount(1);
  await saveScreenshot('round22-no-project-1280x800');

  // The keyboard path the message names: the project opens, and the warning goes.
  await chooseFile(page, electronApp, workspace, 'sample.actguy.json', 'open', () =>
    page.keyboard.press('Control+Shift+O'),
  );
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  await expect(warning).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

/** Presses M over the event row in Sound events mode: an event at the playhead, the project's .sev unsaved. */
async function addEventWithM(page: Page): Promise<void> {
  await page.keyboard.press('Control+2');
  await page.getByTestId('sev-track').hover();
  await page.keyboard.press('m');
  await expect(page.getByTestId('project-dirty')).toHaveCount(1);
}

/**
 * Project mode at 1280x800 with an unsaved .sev: the project's name read "sampl…", the unsaved mark cut with it, and
 * the viewport's Frame all wrapped to a line of its own. Mutations that fail: the mark back inside the name's span
 * (the name is cut); the viewport's controls not grouped (Frame all under Follow).
 */
test('Project mode at 1280x800 shows the project name and its unsaved mark whole, Frame all beside Follow', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  await addEventWithM(page);
  await page.keyboard.press('Control+3');
  const header = page.getByTestId('project-panel').locator('.panel-header');
  const name = page.getByTestId('project-name');
  expect(await textCut(name), 'the project name is cut').toBe(false);
  await expect(name).toHaveText('sample');
  expect(await overrun(page.getByTestId('project-dirty'), header), 'the unsaved mark is cut').toBe(0);

  const frameAll = (await page.getByTestId('frame-all').boundingBox())!;
  const follow = (await page.getByTestId('follow').boundingBox())!;
  expect(
    Math.abs(frameAll.y + frameAll.height / 2 - (follow.y + follow.height / 2)),
    'Frame all is on a line of its own',
  ).toBeLessThan(6);
  await saveScreenshot('round22-project-mode-1280x800');
  expect(pageErrors).toEqual([]);
});
