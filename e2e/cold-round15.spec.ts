/**
 * What first-time users met in the browser build at 1280x800, 1600x1000 and 1920x1080 (docs/user-guide.md "Tried
 * cold", fifteenth round).
 * The build dialog said "wrote stage.mar" and no more: a lead could not tell what the build wrote, how much of the
 * .mar was the motions, nor how it stood against the budget. Each written file now shows its size (to the byte in
 * its tooltip), the .mar the motions' share, and with a budget set the share of the budget used and what is left.
 * Mutations that fail: buildRunner's writtenBytes removed (the sizes fall back to the report's, the report file's
 * size is gone); the size element removed; the .mar's share line removed; the budget words removed.
 */
import { readFileSync, statSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openSampleProjectAt1280 } from './sev-ui';
import { buildArchives, waitForProjectFigures } from './ui';

const kib = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KiB`);

test('the build dialog says what each written file weighs, the motions’ share and the budget', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.setTimeout(180_000);
  await openSampleProjectAt1280(page, workspace, electronApp);
  await waitForProjectFigures(page);
  const dialog = await buildArchives(page);
  const outputs = dialog.getByTestId('build-output');
  await expect(outputs).toHaveCount(3);
  // Each file's size is the file's on disk, in KiB, to the byte in its tooltip.
  for (const name of ['stage.mar', 'stage.sar', 'stage.report.json']) {
    const bytes = statSync(workspace.path(`out/${name}`)).size;
    const row = dialog.locator(`[data-testid="build-output"][data-name="${name}"]`);
    await expect(row).toHaveAttribute('data-bytes', String(bytes));
    await expect(row.getByTestId('build-output-size')).toHaveText(kib(bytes));
    await expect(row.getByTestId('build-output-size')).toHaveAttribute(
      'title',
      `${bytes.toLocaleString('en-US')} bytes`,
    );
  }
  // The .mar: the motions' share of it (the rest is its header and entry table); no budget is set.
  const report = JSON.parse(readFileSync(workspace.path('out/stage.report.json'), 'utf8'));
  const mar = statSync(workspace.path('out/stage.mar')).size;
  const share = ((report.totals.mt3Bytes / mar) * 100).toFixed(1);
  const marHolds = dialog.locator('[data-name="stage.mar"]').getByTestId('build-output-holds');
  await expect(marHolds).toHaveText(
    `4 motions: ${kib(report.totals.mt3Bytes)} (${share}%); the rest is the header and entry table`,
  );
  await expect(dialog.locator('[data-name="stage.sar"]').getByTestId('build-output-holds')).toHaveText(
    `sound events: ${report.totals.events} events, 7 SE slots`,
  );
  await saveScreenshot('round15-build-sizes-1280x800');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // A budget over what the build takes: the .mar against it, what is left.
  const budget = mar * 2;
  const panel = page.getByTestId('project-budget');
  await panel.getByTestId('project-budget-input').fill(String(budget));
  await panel.getByTestId('project-budget-input').press('Enter');
  await buildArchives(page, { timeout: 120_000 });
  const built = statSync(workspace.path('out/stage.mar')).size;
  await expect(marHolds).toContainText(
    `. Budget ${kib(budget)}: ${((built / budget) * 100).toFixed(1)}% used, ${kib(budget - built)} to spare`,
  );
  await expect(marHolds).not.toHaveClass(/bad/);
  await saveScreenshot('round15-build-sizes-budget-1280x800');
  await page.keyboard.press('Escape');
  expect(pageErrors).toEqual([]);
});

/**
 * A right-click on an event did nothing: a Maya or MotionBuilder user looks there first for Delete, Copy, Nudge. It
 * now selects the event (or keeps the selection it is in) and opens the Events menu's event commands at the
 * pointer, each with its key, each one undo step as from the menu; Escape hands the keyboard to the event row.
 * Mutations that fail: EventContextMenu not mounted in SevEditor; its contextmenu listener not selecting the event;
 * EventList's right-click on a selected row collapsing the selection again; the Escape handler removed.
 */
test('a right-click on an event opens its commands at the pointer: one undo step each, Escape hands back the keys', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  await openSampleProjectAt1280(page, workspace, electronApp);
  const markers = page.getByTestId('sev-marker');
  const count = await markers.count();
  const menu = page.getByTestId('sev-context-menu');
  await markers.nth(3).click({ button: 'right' });
  await expect(menu).toBeVisible();
  await expect(markers.nth(3)).toHaveAttribute('aria-pressed', 'true');
  await expect(menu.getByRole('menuitem')).toHaveText([
    /^Cut EventsCtrl\+X$/,
    /^Copy EventsCtrl\+C$/,
    /^Paste Events at PlayheadCtrl\+V$/,
    /^Delete EventsDelete$/,
    /^Select All EventsCtrl\+A$/,
    /^Nudge Events 1 Frame EarlierAlt\+←$/,
    /^Nudge Events 1 Frame LaterAlt\+→$/,
  ]);
  await expect(page.getByTestId('sev-context-paste')).toBeDisabled();
  // The keyboard is in the menu, then back on the event row with Escape (where Delete, Ctrl+C act).
  await expect(page.getByTestId('sev-context-cut')).toBeFocused();
  await saveScreenshot('round15-event-context-menu-1280x800');
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  await expect(page.getByTestId('sev-track')).toBeFocused();
  // Delete from the menu: one named undo step.
  await markers.nth(3).click({ button: 'right' });
  await page.getByTestId('sev-context-delete').click();
  await expect(menu).toHaveCount(0);
  await expect(markers).toHaveCount(count - 1);
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toHaveText(/^Undo Delete SE_\w+ at frame \d+/);
  await page.getByTestId('menu-undo').click();
  await expect(markers).toHaveCount(count);
  // A right-click on a row of a selection keeps the selection: Copy takes both.
  const rows = page.getByTestId('sev-event-row');
  await rows
    .nth(1)
    .getByTestId('sev-event-resolved')
    .click({ modifiers: ['Control'] });
  await rows
    .nth(2)
    .getByTestId('sev-event-resolved')
    .click({ modifiers: ['Control'] });
  await expect(page.locator('[data-testid="sev-event-row"][aria-selected="true"]')).toHaveCount(2);
  await rows.nth(2).getByTestId('sev-event-resolved').click({ button: 'right' });
  await expect(page.locator('[data-testid="sev-event-row"][aria-selected="true"]')).toHaveCount(2);
  await page.getByTestId('sev-context-copy').click();
  await rows.nth(2).getByTestId('sev-event-resolved').click({ button: 'right' });
  await expect(page.getByTestId('sev-context-paste')).toHaveText(/^Paste 2 Events at Playhead/);
  // Near the window's corner the menu opens inside it.
  const box = (await menu.boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(800);
  expect(box.x + box.width).toBeLessThanOrEqual(1280);
  await page.keyboard.press('Escape');
  await expect(menu).toHaveCount(0);
  expect(pageErrors).toEqual([]);
});
