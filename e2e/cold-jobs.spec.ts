/**
 * What a sound designer and a technical animator trying the app cold met doing their two main jobs at 1280x800 and
 * 1920x1080 (docs/user-guide.md "Tried cold", second round): a BVH of 300 long joint names gave 300 notifications that
 * pushed the import's own summary off the list; a frame typed past the motion's end was named only in the message
 * list, across the window from the field; at 1280 px the SEV toolbar cut "1 problem — the build will refuse this SEV".
 */
import { writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { chooseFile, openSampleProject } from './sev-ui';
import { waitForDocument } from './ui';

/** A BVH whose root has `count` children, each named past the 31 bytes an MTN name holds (one warning each). */
function longNamesBvh(count: number): string {
  const children = Array.from(
    { length: count },
    (_, j) =>
      `  JOINT J${String(j).padStart(3, '0')}_a_joint_name_longer_than_an_mtn_holds\n  {\n    OFFSET 0 1 0\n    CHANNELS 3 Zrotation Xrotation Yrotation\n    End Site\n    {\n      OFFSET 0 1 0\n    }\n  }`,
  ).join('\n');
  const row = Array(6 + 3 * count)
    .fill('0')
    .join(' ');
  return `HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 0\n  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation\n${children}\n}\nMOTION\nFrames: 2\nFrame Time: 0.0333333\n${row}\n${row}\n`;
}

for (const [width, height] of [
  [1280, 800],
  [1920, 1080],
] as const) {
  test(`at ${width}x${height} an import's 300 warnings are one message that lists them, under the import's summary`, async ({
    page,
    workspace,
    electronApp,
    pageErrors,
    saveScreenshot,
  }) => {
    if (!electronApp) await page.setViewportSize({ width, height });
    writeFileSync(workspace.path('crowd.bvh'), longNamesBvh(300));
    await waitForDocument(page);
    await page.getByTestId('menu-file').click();
    await page.getByTestId('menu-import').click();
    const options = page.getByTestId('import-options');
    await chooseFile(page, electronApp, workspace, 'crowd.bvh', 'open', () =>
      options.getByTestId('import-choose-file').click(),
    );
    await expect(page.getByTestId('doc-name')).toHaveText('crowd');
    // The summary and one warning that counts them: not 300 notifications (which pushed the summary out).
    // Its own message, by its text: any other info message still shown would make two.
    await expect(page.getByTestId('message-info').filter({ hasText: 'Imported crowd.bvh' })).toContainText(
      'Imported crowd.bvh: 301 joints',
    );
    const warning = page.getByTestId('message-warning');
    await expect(warning).toHaveCount(1);
    await expect(warning.locator('.message-text')).toHaveText('crowd.bvh: 300 warnings (300 joint names truncated)');
    const toggle = warning.getByTestId('message-details-toggle');
    await expect(toggle).toHaveText('Show all 101');
    await expect(warning.getByTestId('message-details')).toHaveCount(0);

    // Show all: the first hundred and a line for the rest, in a box of its own that scrolls inside the message list.
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const items = warning.getByTestId('message-details').locator('li');
    await expect(items).toHaveCount(101);
    await expect(items.first()).toContainText('truncated to "J000_a_joint_name_longer_than_a"');
    await expect(items.last()).toHaveText('200 more warnings not listed (only the first 100 are)');
    const fits = await page.getByTestId('message-list').evaluate((list) => {
      const box = list.getBoundingClientRect();
      const panel = list.parentElement!.getBoundingClientRect();
      return box.bottom <= panel.bottom && list.scrollWidth <= list.clientWidth;
    });
    expect(fits, 'the message list stays inside the viewport panel, with no sideways scrolling').toBe(true);
    await saveScreenshot(`import-warnings-listed-${width}x${height}`);
    await toggle.click();
    await expect(warning.getByTestId('message-details')).toHaveCount(0);

    // The waist picker lists those long names: it stays inside the tuning panel (it widened it past its column's edge).
    const waist = page.getByTestId('waist-select');
    await waist.scrollIntoViewIfNeeded();
    const past = await waist.evaluate((w) => {
      const body = w.closest('.panel-scroll')!;
      return body.scrollWidth - body.clientWidth;
    });
    expect(past, 'the tuning panel is wider than its column (it scrolls sideways)').toBeLessThanOrEqual(0);
    expect(pageErrors).toEqual([]);
  });
}

test('at 1280x800 a frame past the end is refused beside its field, and an unknown SE name is named whole', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
  saveScreenshot,
}) => {
  test.skip(!!electronApp, 'the window size is set through the browser viewport');
  await page.setViewportSize({ width: 1280, height: 800 });
  await openSampleProject(page, workspace, electronApp);
  // The last event (frame 120 of walk's 0..132): typed 500, Enter.
  const field = page.locator('[data-testid="sev-event-row"]').last().getByTestId('sev-event-frame');
  await field.fill('500');
  await field.press('Enter');
  await expect(field).toHaveValue('120');
  const refusal = page.getByTestId('sev-event-frame-refusal');
  await expect(refusal).toHaveText('Event frame (walk) 500 is outside 0..132; it stays 120.');
  await expect(field).toHaveAttribute('aria-describedby', (await refusal.getAttribute('id'))!);
  // Beside the field: over or under it, starting at its left edge, inside the window.
  const f = (await field.boundingBox())!;
  const r = (await refusal.boundingBox())!;
  expect(Math.min(Math.abs(r.y - (f.y + f.height)), Math.abs(f.y - (r.y + r.height))), 'gap to the field').toBeLessThan(
    6,
  );
  expect(Math.abs(r.x - f.x), 'left edge').toBeLessThan(2);
  expect(r.x + r.width).toBeLessThanOrEqual(1280);
  expect(r.y + r.height).toBeLessThanOrEqual(800);
  await saveScreenshot('sev-frame-refused-beside-1280x800');
  // The next key takes it away; the message list keeps it until the user moves on.
  await page.keyboard.press('Shift');
  await expect(refusal).toHaveCount(0);
  await expect(page.getByTestId('message-warning')).toContainText('500 is outside 0..132');

  // An SE renamed to a name the tables do not define: its error under the name, and the toolbar's count whole.
  const name = page.getByTestId('sev-se-name').first();
  await name.fill('SE_NOPE');
  await name.press('Enter');
  await expect(page.getByTestId('sev-se-error').first()).toContainText('SE name SE_NOPE is not defined in');
  const issues = page.getByTestId('sev-issues');
  await expect(issues).toHaveText('1 problem — the build will refuse this SEV');
  const cut = await issues.evaluate((el) => {
    const bar = el.parentElement!.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return Math.max(box.right - bar.right, box.bottom - bar.bottom, el.scrollWidth - el.clientWidth);
  });
  expect(cut, 'the SEV toolbar cuts its problem count').toBeLessThanOrEqual(0);
  // With an event selected its note field shows too, with room for its label and a few characters (it was
  // squeezed to "nc").
  await page.locator('[data-testid="sev-event-row"]').nth(2).getByTestId('sev-event-resolved').click();
  const note = await page.locator('.sev-note-field').evaluate((el) => el.getBoundingClientRect().width);
  expect(note).toBeGreaterThanOrEqual(90);
  await saveScreenshot('sev-unknown-se-1280x800');
  expect(pageErrors).toEqual([]);
});
