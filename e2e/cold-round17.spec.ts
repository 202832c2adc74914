/**
 * What first-time users met in the browser build at 1280x800 and 1920x1080 (docs/user-guide.md "Tried cold",
 * seventeenth round).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { canvasData, waitForDocument, waitForDocumentAt1280 } from './ui';
import { openSampleProject } from './sev-ui';

/**
 * An exporter saving beside the build's archives: the save picker listed every file of the workspace and no folder,
 * and no folder could be made. It now shows one folder at a time, its folders first: a click goes into one, Up goes
 * back, New Folder makes one there (in main, refused with words for `..`, a separator, a taken name) and goes into it.
 * Mutations that fail: Dialogs.tsx's folder rows left out; the file list not kept to the folder shown; the save not
 * joining the folder shown to the name; New Folder not going into the folder made; the refusal not shown.
 */
test('the save picker goes into folders, up, and makes a new one to save in', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the native save dialog has folders of its own');
  await waitForDocumentAt1280(page, electronApp);
  mkdirSync(workspace.path('out'), { recursive: true });
  writeFileSync(workspace.path('out/older.mtn'), '');
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-save-as').click();
  const picker = page.getByTestId('file-picker');
  const where = picker.getByTestId('picker-folder');
  const rows = picker.getByTestId('picker-folder-row');
  const files = picker.getByTestId('picker-file');
  await expect(where).toHaveText('Save in: workspace');
  await expect(picker.getByTestId('picker-up')).toBeDisabled();
  await expect(rows.filter({ hasText: /^out\/folder$/ })).toHaveCount(1);
  // The root's files only: out/older.mtn is in its folder.
  await expect(files.filter({ hasText: 'older.mtn' })).toHaveCount(0);
  await expect(files.filter({ hasText: /^walk\.mtn/ })).toHaveCount(1);

  await rows.filter({ hasText: /^out\// }).click();
  await expect(where).toHaveText('Save in: workspace/out');
  await expect(files).toHaveText([/^older\.mtn/]);
  // A name that climbs out is refused in main, in words, and nothing is made.
  await picker.getByTestId('picker-new-folder').click();
  await picker.getByTestId('picker-new-folder-name').fill('../escape');
  await picker.getByTestId('picker-make-folder').click();
  await expect(picker.getByTestId('picker-folder-error')).toContainText('a name holds no "/"');
  await picker.getByTestId('picker-new-folder-name').fill('older.mtn');
  await picker.getByTestId('picker-new-folder-name').press('Enter');
  await expect(picker.getByTestId('picker-folder-error')).toHaveText(
    'New folder: out/older.mtn already exists; choose another name.',
  );
  await picker.getByTestId('picker-new-folder-name').fill('takes');
  await picker.getByTestId('picker-new-folder-name').press('Enter');
  await expect(where).toHaveText('Save in: workspace/out/takes');
  await expect(picker.getByTestId('picker-folder-error')).toHaveCount(0);
  expect(existsSync(workspace.path('out/takes'))).toBe(true);
  await expect(picker.getByTestId('picker-name')).toBeFocused();
  await saveScreenshot('round17-save-picker-new-folder-1280x800');
  // Up, and the new folder is listed there; back in, Save writes into it.
  await picker.getByTestId('picker-up').click();
  await expect(where).toHaveText('Save in: workspace/out');
  await expect(rows).toHaveText([/^takes\//]);
  await rows.click();
  await picker.getByTestId('picker-name').fill('walk_take1');
  await picker.getByTestId('picker-ok').click();
  await expect(picker).toHaveCount(0);
  await expect.poll(() => existsSync(workspace.path('out/takes/walk_take1.mtn'))).toBe(true);
  expect(existsSync(workspace.path('escape'))).toBe(false);

  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-save-as').click();
  // It starts where the motion was saved (round 18); Up shows the folder made.
  await expect(where).toHaveText('Save in: workspace/out/takes');
  await picker.getByTestId('picker-up').click();
  await expect(rows).toHaveText([/^takes\//]);
  await saveScreenshot('round17-save-picker-1920x1080');
  await page.keyboard.press('Escape');
  await expect(picker).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});

/** Every height each project row has had, by motion name, since `watchRowHeights`. */
async function watchRowHeights(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: Record<string, number[]> = {};
    (window as unknown as { rowHeights: typeof seen }).rowHeights = seen;
    const look = () => {
      for (const row of Array.from(document.querySelectorAll<HTMLElement>('[data-testid="project-motion"]'))) {
        const h = row.getBoundingClientRect().height;
        const name = row.dataset.name ?? '';
        if (!(seen[name] ??= []).includes(h)) seen[name].push(h);
      }
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

/**
 * A lead dragging a motion up the archive order: each row grew a line when its figures arrived, so the list moved
 * under the pointer. The figures' line is held from the start. Mutation that fails: project.css's min-height on
 * .project-motion-stats removed.
 */
test('the project rows keep their height when their figures arrive', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  // Project mode: the list in its 250 px column, where the figures take two lines.
  await waitForDocument(page);
  await page.keyboard.press('Control+3');
  await watchRowHeights(page);
  await openSampleProject(page, workspace, electronApp);
  const rows = page.getByTestId('project-motion');
  await expect.poll(async () => (await rows.count()) - (await page.getByTestId('project-motion-size').count())).toBe(0);
  const heights = await page.evaluate(() => (window as unknown as { rowHeights: Record<string, number[]> }).rowHeights);
  expect(Object.keys(heights).sort()).toEqual(['cmu_01_01', 'walk', 'walk_60', 'walk_rough']);
  for (const [name, seen] of Object.entries(heights)) expect({ name, seen }).toEqual({ name, seen: [seen[0]] });
  // The figures did take two lines there (the height held is used).
  const stats = rows.first().getByTestId('project-motion-stats');
  expect(await stats.evaluate((e) => new Set(Array.from(e.children, (c) => c.getBoundingClientRect().top)).size)).toBe(
    2,
  );
  expect(pageErrors).toEqual([]);
});

/**
 * A technical animator grouping the timeline by chain right-clicked a chain header and its label column: nothing.
 * A header now opens the outliner's commands (fold it, fold the others, unfold all, show only that chain, the
 * grouping); a joint's label selects it and opens the edits at the playhead (which stays). The hint names the
 * right-click, in two lines at 1280x800. Mutations that fail: the painter's chain-header branch in openMenu removed
 * (no menu); its label branch removed (no menu, or the playhead moved); the chain menu's fold item not folding;
 * the hint's right-click words left out.
 */
test('a right-click on a chain header folds chains; on a joint label, the edits at the playhead', async ({
  page,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocumentAt1280(page, electronApp);
  const hint = page.getByTestId('timeline-hint');
  await expect(hint).toContainText('Right-click: key, lock, trace there');
  // Its lines: the distinct tops of its text's boxes.
  const lines = await hint.evaluate((e) => {
    const range = document.createRange();
    range.selectNodeContents(e);
    return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
  });
  expect(lines).toBeLessThanOrEqual(2);

  await page.getByTestId('timeline-group').click();
  const canvas = page.getByTestId('timeline-canvas');
  const menu = page.getByTestId('tuning-context-menu');
  await expect.poll(async () => (await canvasData(canvas)).rows).toMatch(/^-1,\w+-/);
  const d = await canvasData(canvas);
  const rowY = (i: number) => Number(d.jointsTop) + Number(d.rowHeight) * (i + 0.5);
  const group = /^-1,(\w+)-/.exec(d.rows)![1];
  const Group = group[0].toUpperCase() + group.slice(1);
  const count = d.rows
    .split(',')
    .slice(2)
    .findIndex((r) => !/^\d+$/.test(r));
  const frameBefore = await page.getByTestId('frame-number').inputValue();
  // On the header's name (the label column).
  await canvas.click({ button: 'right', position: { x: 20, y: rowY(1) } });
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem').or(menu.getByRole('menuitemcheckbox'))).toHaveText([
    new RegExp(`^Fold ${Group} \\(\\d+ joints?\\)$`),
    'Fold the Other Chains',
    'Unfold All Chains',
    ...(group === 'other' ? [] : [`Show Only ${Group}`]),
    '✓Group Rows by Chain',
  ]);
  // The rows do not fit at 1280x800: grouping folded the other chains (round 18), so Unfold All has work to do.
  await expect(page.getByTestId('chain-context-unfold-all')).toBeEnabled();
  await saveScreenshot('round17-chain-header-menu-1280x800');
  await page.getByTestId('chain-context-fold').click();
  await expect(menu).toHaveCount(0);
  await expect(page.getByTestId(`timeline-fold-${group}`)).toHaveAttribute('aria-expanded', 'false');
  await expect.poll(async () => (await canvasData(canvas)).rows).toMatch(new RegExp(`^-1,${group}\\+`));
  // On the header's frames: Unfold All brings it back.
  await canvas.click({ button: 'right', position: { x: Number(d.plotLeft) + 40, y: rowY(1) } });
  await expect(page.getByTestId('chain-context-fold')).toHaveText(new RegExp(`^Unfold ${Group}`));
  await page.getByTestId('chain-context-unfold-all').click();
  await expect(page.getByTestId(`timeline-fold-${group}`)).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('frame-number')).toHaveValue(frameBefore);

  // A joint's label (the first joint under the header): that joint, the edits at the playhead, which stays.
  expect(count).not.toBe(0);
  await canvas.click({ button: 'right', position: { x: 20, y: rowY(2) } });
  await expect(menu).toBeVisible();
  const name = (await page.getByTestId('timeline-selected').textContent()) ?? '';
  expect(['', 'Root translation']).not.toContain(name);
  await expect(page.getByTestId('tuning-context-lock')).toHaveText(`Lock ${name} at Frame ${frameBefore}L`);
  await expect(page.getByTestId('frame-number')).toHaveValue(frameBefore);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await page.getByTestId('timeline-group').click();

  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.getByTestId('timeline-group').click();
  await canvas.click({ button: 'right', position: { x: 20, y: rowY(1) } });
  await expect(menu).toBeVisible();
  await saveScreenshot('round17-chain-header-menu-1920x1080');
  await page.keyboard.press('Escape');
  await page.getByTestId('timeline-group').click();
  expect(pageErrors).toEqual([]);
});
