/**
 * What a first-time user meets at 1280x800, each seen in a cold walk-through of the app:
 * - with no motion open, every panel says what it is for and how to open one (the timeline was blank), and the
 *   sound-event banner's "Open walk" button shows its name whole (it was squeezed onto two clipped lines);
 * - the SE table shows each SE name whole in its field, beside the project list and in the all-panels layout
 *   ("SE_CLOTH_SWISH" was cut to "SE_CLOTH_S"), without running off the panel's side;
 * - the project's Budget field shows its hint whole ("none (bytes, (" was all one saw of it);
 * - a greyed menu item says what it waits for (Save Project, Build Archives…, Undo, Cut Events were greyed with no
 *   reason);
 * - the file picker's greyed Open says to choose a file first;
 * - the tuning panel's lock and trace-key lists are reached without scrolling once the sections above are folded
 *   (each section header folds it, remembered over a reload);
 * - in the sound-events work mode (no tuning panel) Edit's tuning items (user key, lock, trace key at the playhead)
 *   are greyed with the reason and their K / L / T keys change nothing (they were offered and ran unseen);
 * - Tab stays in an open dialog (from the file picker's Cancel it walked into the menu bar behind the backdrop).
 * - the curve hint shows its first controls whole on one line (it ended "drag k…" at 1280, the rest hover-only);
 * - deleting an SE its events use asks first, naming the count, motion and frames (one click deleted them all);
 * - with an event selected, the sound-event toolbar keeps "+ Add SE" whole (the note field pushed it off the panel);
 * - the timeline header stays one line (Group wrapped to a second line, a joint row less, with a longer joint name).
 */
import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';
import { clippedControls, placeholderCut, selectJoint, waitForDocument } from './ui';

test('at 1280x800 with no motion open, the timeline says how to open one and the .sev banner button is whole', async ({
  page,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await expect(page.getByTestId('timeline-empty')).toHaveCount(0);
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-close').click();
  await expect(page.getByTestId('statusbar')).toHaveText('No motion open');

  const empty = page.getByTestId('timeline-empty');
  await expect(empty).toContainText('File › Open… (Ctrl+O)');
  const panel = (await page.getByTestId('timeline').boundingBox())!;
  const box = (await empty.boundingBox())!;
  expect(box.y + box.height, 'inside the timeline panel').toBeLessThanOrEqual(panel.y + panel.height);

  const open = page.getByTestId('sev-mismatch').getByTestId('sev-open-motion');
  await expect(open).toHaveText('Open walk');
  const cut = await open.evaluate(
    (el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1 || el.clientHeight > 24,
  );
  expect(cut, '"Open walk" on one line, not clipped').toBe(false);
  await saveScreenshot('first-use-no-motion-1280x800');
});

test('at 1280x800 the SE table shows whole SE names, with and without a project, and the budget field its hint', async ({
  page,
  workspace,
  electronApp,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const table = page.getByTestId('sev-se-table');
  const overflows = () => table.evaluate((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1);
  // A field's own scroll width is what it draws (the measured-text check alone missed "SE_CLOTH_SWI").
  const cutNames = () =>
    table
      .getByTestId('sev-se-name')
      .evaluateAll((els) =>
        (els as HTMLInputElement[]).filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.value),
      );
  // Every panel, no project: no SE tables loaded, so no codes beside the names.
  await waitForDocument(page);
  await expect(table.getByTestId('sev-se-name')).toHaveCount(3);
  expect(await clippedControls(page, '[data-testid="sev-se-table"]')).toEqual([]);
  expect(await cutNames()).toEqual([]);
  expect(await overflows()).toBe(false);
  // Project mode: the editor beside the project list, the tables' codes beside the names.
  await openSampleProject(page, workspace, electronApp);
  await page.getByTestId('mode-project').click();
  await expect(table.getByTestId('sev-se-name-code').first()).toHaveText(/^0x/);
  expect(await clippedControls(page, '[data-testid="sev-se-table"]')).toEqual([]);
  expect(await cutNames()).toEqual([]);
  expect(await overflows()).toBe(false);
  // The Budget field's hint, beside the SE table in the project column, is whole too.
  const hintCut = await placeholderCut(page.getByTestId('project-budget-input'));
  expect(hintCut).toBeNull();
  await saveScreenshot('first-use-se-names-project-1280x800');
});

test('Tab and Shift+Tab stay inside an open dialog; its greyed Open button says what it waits for', async ({
  page,
}) => {
  await waitForDocument(page);
  const inPicker = () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="file-picker"]'));
  const focused = () =>
    page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      return a?.dataset.testid ?? a?.className ?? '';
    });
  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-open').click();
  const picker = page.getByTestId('file-picker');
  await expect(picker).toBeVisible();
  await expect(picker.getByTestId('picker-ok')).toBeDisabled();
  await expect(picker.getByTestId('picker-ok')).toHaveAttribute('title', 'Choose a file in the list first');
  // Filter, the files, Cancel (Open is disabled until a file is chosen), then round to the filter again.
  const files = await picker.getByTestId('picker-file').count();
  for (let i = 0; i < files + 4; i++) {
    await page.keyboard.press('Tab');
    expect(await inPicker(), `after ${i + 1} Tab`).toBe(true);
  }
  await picker.getByTestId('picker-cancel').focus();
  await page.keyboard.press('Tab');
  await expect.poll(focused).toBe('picker-filter'); // the filter field
  await page.keyboard.press('Shift+Tab');
  await expect.poll(focused).toBe('picker-cancel');
  // Once a file is chosen, Open runs and needs no note.
  await picker.getByTestId('picker-file').first().click();
  await expect(picker.getByTestId('picker-ok')).toBeEnabled();
  await expect(picker.getByTestId('picker-ok')).not.toHaveAttribute('title');
  await page.keyboard.press('Escape');
  await expect(picker).toHaveCount(0);
});

test('greyed menu items say what they wait for', async ({ page }) => {
  await waitForDocument(page);
  const reason = async (menu: string, item: string) => {
    await page.getByTestId(menu).click();
    const entry = page.getByTestId(item);
    await expect(entry).toBeDisabled();
    const title = await entry.getAttribute('title');
    await page.keyboard.press('Escape');
    return title;
  };
  expect(await reason('menu-file', 'menu-save-project')).toBe('Open a project first (File › Open Project…)');
  expect(await reason('menu-file', 'menu-build')).toBe(
    'Open a project first (File › Open Project…): the .mar and .sar are built from the motions and .sev files it lists',
  );
  // The item says what it makes (a user after the .mar and .sar found "Build Archives…" and no .mar: cold round 9).
  await page.getByTestId('menu-file').click();
  await expect(page.getByTestId('menu-build')).toContainText('Build Archives (.mar, .sar)…');
  await page.keyboard.press('Escape');
  expect(await reason('menu-edit', 'menu-undo')).toBe('Nothing to undo yet');
  expect(await reason('menu-events', 'menu-events-cut')).toMatch(/^Select events first/);
  // An item that can run has no such note.
  await page.getByTestId('menu-file').click();
  await expect(page.getByTestId('menu-open')).toBeEnabled();
  expect(await page.getByTestId('menu-open').getAttribute('title')).toBeNull();
  await page.keyboard.press('Escape');
});

test('the sound-events work mode greys the tuning edits with a reason, and K / L / T change nothing there', async ({
  page,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const items = ['menu-toggle-key', 'menu-toggle-lock', 'menu-toggle-trace'];
  await page.getByTestId('menu-edit').click();
  for (const id of items) await expect(page.getByTestId(id)).toBeEnabled();
  await page.keyboard.press('Escape');

  await page.getByTestId('mode-sev').click();
  await expect(page.getByTestId('mode-sev')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('menu-edit').click();
  for (const id of items) {
    await expect(page.getByTestId(id)).toBeDisabled();
    await expect(page.getByTestId(id)).toHaveAttribute('title', /^This work mode hides the tuning panel/);
  }
  await saveScreenshot('sev-mode-edit-menu-1280x800');
  await page.keyboard.press('Escape');
  for (const key of ['k', 'l', 't']) await page.keyboard.press(key);
  // Nothing was edited: Undo still has nothing to undo.
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toBeDisabled();
  await page.keyboard.press('Escape');

  // Back in the full layout the items and keys work again.
  await page.getByTestId('mode-sev').click();
  await expect(page.locator('.app')).toHaveAttribute('data-maximized', 'none');
  await page.keyboard.press('t');
  await page.getByTestId('menu-edit').click();
  for (const id of items) await expect(page.getByTestId(id)).toBeEnabled();
  await expect(page.getByTestId('menu-undo')).toBeEnabled();
  await page.keyboard.press('Escape');
});

test('at 1280x800 folding tuning sections brings the lock and trace-key lists into view, remembered over a reload', async ({
  page,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  // The lock list scrolls inside itself: the whole list box, and the whole trace-key list, come into view.
  const lockList = page.getByTestId('lock-list');
  const traceList = page.getByTestId('trace-list');
  await expect(lockList).not.toBeInViewport({ ratio: 1 });
  await saveScreenshot('tuning-sections-open-1280x800');
  for (const id of ['compression', 'override', 'flags']) {
    await page.getByTestId(`tuning-fold-${id}`).click();
    await expect(page.getByTestId(`tuning-fold-${id}`)).toHaveAttribute('aria-expanded', 'false');
  }
  await expect(page.getByTestId('stat-total-keys')).toHaveCount(0);
  await expect(lockList).toBeInViewport({ ratio: 1 });
  await expect(traceList).toBeInViewport({ ratio: 1 });
  await saveScreenshot('tuning-sections-folded-1280x800');
  await page.reload();
  // (waitForDocument reads the Compression section's key count, folded here.)
  await expect(page.getByTestId('doc-name')).toHaveText('walk', { timeout: 30_000 });
  await expect(page.getByTestId('tuning-fold-flags')).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByTestId('trace-list')).toBeInViewport({ ratio: 1 });
  // A folded section opens again from its header.
  await page.getByTestId('tuning-fold-compression').click();
  await expect(page.getByTestId('stat-total-keys')).toBeVisible();
});

test('at 1280x800 the curve hint shows its first controls whole on one line, in every layout that shows the curves', async ({
  page,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const hint = page.getByTestId('curve-hint');
  // Each phrase's own rectangles (a Range over the hint's text): inside the hint's box, on its one line, never
  // under a "…" (the whole list was one line ending in "drag k…" at 1280: Home, Del and wheel were hover-only).
  const shown = (phrases: string[]) =>
    hint.evaluate((el, list) => {
      const box = el.getBoundingClientRect();
      const text = el.textContent ?? '';
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const nodes: { node: Text; start: number }[] = [];
      let at = 0;
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        nodes.push({ node: n as Text, start: at });
        at += (n as Text).length;
      }
      const where = (offset: number) => {
        const hit = nodes.filter((n) => n.start <= offset).pop()!;
        return { node: hit.node, offset: Math.min(offset - hit.start, hit.node.length) };
      };
      const ellipsis = getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth;
      return list.map((phrase) => {
        const i = text.indexOf(phrase);
        if (i < 0) return `${phrase}: missing`;
        const range = document.createRange();
        const a = where(i);
        const b = where(i + phrase.length);
        range.setStart(a.node, a.offset);
        range.setEnd(b.node, b.offset);
        const r = range.getBoundingClientRect();
        const inside = r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.bottom <= box.bottom + 0.5;
        return inside && !ellipsis ? 'whole' : `${phrase}: cut (${Math.round(r.right - box.right)} px past)`;
      });
    }, phrases);
  const essential = ['Ctrl+click: add/remove user key', 'click: go to frame', 'drag keys: retime', 'wheel: zoom'];
  const whole = essential.map(() => 'whole');
  const heightBefore = (await hint.boundingBox())!.height;
  expect(heightBefore, 'one line: the curves keep their height').toBeLessThanOrEqual(19);
  expect(await shown(essential)).toEqual(whole);
  await saveScreenshot('curve-hint-all-panels-1280x800');
  await page.getByTestId('mode-tuning').click();
  await expect(page.getByTestId('mode-tuning')).toHaveAttribute('aria-pressed', 'true');
  // The tuning mode's wider curves show more of the list.
  expect(await shown([...essential, 'right-drag: pan', 'Home: fit'])).toEqual([...whole, 'whole', 'whole']);
  expect((await hint.boundingBox())!.height).toBe(heightBefore);
  await saveScreenshot('curve-hint-tuner-1280x800');
  // The whole list stays on the hint's tooltip.
  await expect(hint).toHaveAttribute(
    'title',
    /Ctrl\/Shift\+click a timeline label: overlay that joint · right-click: key, lock, trace key here$/,
  );
});

test('deleting an SE with events asks first (count, motion, frames), keyboard only with Tab kept in the dialog; one undo step', async ({
  page,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const names = page.getByTestId('sev-se-table').getByTestId('sev-se-name');
  await expect(names).toHaveCount(3);
  const markers = page.getByTestId('sev-event-row');
  const eventsBefore = await markers.count();
  const del = page.getByTestId('sev-se-delete').first();
  await del.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByTestId('confirm-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Delete SE_FOOT_L and its events?');
  await expect(dialog).toContainText(/SE_FOOT_L \(SE 0\) plays 4 events of walk, on frames \d+, \d+, \d+, \d+\./);
  await saveScreenshot('se-delete-question-1280x800');
  // Cancel has the focus: Enter now keeps everything.
  await expect(dialog.getByTestId('confirm-cancel')).toBeFocused();
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('[data-testid="confirm-dialog"]'))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(names).toHaveCount(3);
  await expect(markers).toHaveCount(eventsBefore);
  // Confirmed from the keyboard: the SE and its 4 events go as one step, and one Undo brings them back.
  await del.focus();
  await page.keyboard.press('Enter');
  await expect(dialog.getByTestId('confirm-cancel')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByTestId('confirm-delete')).toBeFocused();
  await expect(dialog.getByTestId('confirm-delete')).toHaveText('Delete SE and 4 events');
  await page.keyboard.press('Enter');
  await expect(names).toHaveCount(2);
  await expect(markers).toHaveCount(eventsBefore - 4);
  await page.getByTestId('menu-edit').click();
  await expect(page.getByTestId('menu-undo')).toContainText('Undo Delete SE_FOOT_L and 4 events');
  await page.getByTestId('menu-undo').click();
  await expect(names).toHaveCount(3);
  await expect(markers).toHaveCount(eventsBefore);
});

test('at 1280x800 with every panel and an event selected, the sound-event toolbar keeps + Add SE whole', async ({
  page,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  // A longer motion's joint name and a selected event (its note field shows) made the toolbar run out of room.
  await page.getByTestId('sev-event-resolved').nth(1).click();
  // The click taken (the event selected, its note shown) before the tree's absence is judged.
  await expect(page.getByTestId('sev-event-note')).toBeVisible();
  await expect(page.getByTestId('joint-select-tree')).toHaveCount(0);
  const toolbar = page.locator('.sev-toolbar');
  const cut = await toolbar.evaluate((bar) => {
    const edge = bar.getBoundingClientRect().right - parseFloat(getComputedStyle(bar).paddingRight) + 0.5;
    return Array.from(bar.querySelectorAll('button'))
      .filter((b) => b.getBoundingClientRect().right > edge)
      .map((b) => b.textContent);
  });
  expect(cut).toEqual([]);
  await expect(page.getByTestId('sev-add-se-def')).toBeInViewport({ ratio: 1 });
  await saveScreenshot('sev-toolbar-event-selected-1280x800');
});

test('at 1280x800 with every panel, the timeline header stays one line whatever joint is selected', async ({
  page,
  saveScreenshot,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const header = page.getByTestId('timeline').locator('.panel-header');
  const oneLine = async () => {
    const group = (await page.getByTestId('timeline-group').boundingBox())!;
    const all = (await page.getByTestId('timeline-chain-all').boundingBox())!;
    return Math.abs(group.y - all.y) < 2 && (await header.boundingBox())!.height <= 30;
  };
  expect(await oneLine(), 'with Hips').toBe(true);
  // "Group" wrapped onto a second header line (a joint row less) once a longer name was selected.
  for (const name of ['LeftFoot', 'RightForeArm', 'RightShoulder']) {
    await selectJoint(page, name);
    expect(await oneLine(), `with ${name}`).toBe(true);
  }
  // The narrowed filter field still shows its hint whole ("Filter jo" was all a 64 px field showed of "Filter joints").
  const hintCut = await placeholderCut(page.getByTestId('timeline-filter'));
  expect(hintCut).toBeNull();
  await saveScreenshot('timeline-header-1280x800');
});
