import { readFileSync } from 'node:fs';
import { readMtn } from '../shared/mtn/read';
import { lockedJointAt } from '../shared/motion/types';
import { expect, test } from './fixtures';
import { clickTraceRow, dragLockRow, freeRun, selectJoint, waitForDocument } from './ui';

test('a lock range is set for one joint, refused on a second joint, and a trace key is added', async ({
  page,
  workspace,
}) => {
  await waitForDocument(page);
  const start = freeRun(readFileSync(workspace.path('walk.mtn')), 5);
  const locks = page.getByTestId('lock-item');
  const lockCount = await locks.count();

  // A joint far down the list: the timeline scrolls to its row while the lock row stays pinned on top.
  await selectJoint(page, 'RightToeBase');
  await expect
    .poll(() => page.getByTestId('timeline-canvas').evaluate((el) => el.parentElement!.scrollTop))
    .toBeGreaterThan(0);
  await dragLockRow(page, start, start + 4);
  await expect(locks.filter({ hasText: `RightToeBase frames ${start}–${start + 4}` })).toHaveCount(1);
  await expect(locks).toHaveCount(lockCount + 1);
  await expect(page.getByTestId('dirty-marker')).toHaveText('● modified');

  // A second joint on a locked frame is refused with a message naming frame and joint.
  await selectJoint(page, 'Neck');
  await dragLockRow(page, start + 2, start + 6);
  const warning = page.getByTestId('message-warning');
  await expect(warning).toContainText(`frame ${start + 2} is already locked by joint`);
  await expect(warning).toContainText('"RightToeBase"');
  await expect(locks).toHaveCount(lockCount + 1);

  // Trace key: click in the trace row.
  const traceFrame = start + 2;
  const traceItems = page.getByTestId('trace-item');
  await expect(traceItems.filter({ hasText: new RegExp(`^${traceFrame}`) })).toHaveCount(0);
  await clickTraceRow(page, traceFrame);
  await expect(traceItems.filter({ hasText: new RegExp(`^${traceFrame}`) })).toHaveCount(1);

  // The lock drag was one undo step: undo the trace key, then the lock.
  await page.keyboard.press('Control+z');
  await expect(traceItems.filter({ hasText: new RegExp(`^${traceFrame}`) })).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(locks).toHaveCount(lockCount);
  await expect(page.getByTestId('dirty-marker')).toHaveText('saved');

  // Keyboard at the playhead: T toggles a trace key, L locks the selected joint there (again: unlocks).
  await page.getByTestId('frame-number').fill(String(traceFrame));
  await page.getByTestId('frame-number').press('Enter');
  await page.keyboard.press('t');
  await expect(traceItems.filter({ hasText: new RegExp(`^${traceFrame}`) })).toHaveCount(1);
  await selectJoint(page, 'Neck');
  await page.keyboard.press('l');
  await expect(locks.filter({ hasText: `Neck frame ${traceFrame}` })).toHaveCount(1);
  await page.keyboard.press('l');
  await expect(locks.filter({ hasText: `Neck frame ${traceFrame}` })).toHaveCount(0);
});

test("a trace key chip's ✕ is a 22 px target apart from the other chips, and removes the key as one undo step", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  const frames = [12, 40, 77, 100, 120];
  for (const f of frames) {
    await page.getByTestId('frame-number').fill(String(f));
    await page.getByTestId('frame-number').press('Enter');
    await page.keyboard.press('t');
  }
  const chips = page.getByTestId('trace-item');
  for (const f of frames) await expect(chips.filter({ hasText: new RegExp(`^${f}\\D`) })).toHaveCount(1);
  await page.getByTestId('trace-list').scrollIntoViewIfNeeded();
  // Each ✕ at least 22 × 22 px (it was 18 × 16), overlapping no other chip.
  const boxes = await chips.evaluateAll((els) =>
    els.map((chip) => {
      const r = (e: Element) => {
        const b = e.getBoundingClientRect();
        return { left: b.left, right: b.right, top: b.top, bottom: b.bottom };
      };
      return { chip: r(chip), remove: r(chip.querySelectorAll('button')[1]) };
    }),
  );
  expect(boxes.length).toBeGreaterThanOrEqual(frames.length);
  for (const [i, b] of boxes.entries()) {
    expect(b.remove.right - b.remove.left, `chip ${i}: ✕ width`).toBeGreaterThanOrEqual(22);
    expect(b.remove.bottom - b.remove.top, `chip ${i}: ✕ height`).toBeGreaterThanOrEqual(22);
    for (const [j, o] of boxes.entries()) {
      if (i === j) continue;
      const apart =
        b.remove.right <= o.chip.left ||
        b.remove.left >= o.chip.right ||
        b.remove.bottom <= o.chip.top ||
        b.remove.top >= o.chip.bottom;
      expect(apart, `chip ${i}'s ✕ reaches into chip ${j}`).toBe(true);
    }
  }
  // Its ✕ (near its edge, where a small one was missed) removes the key; Ctrl+Z brings it back.
  const chip40 = chips.filter({ hasText: /^40\D/ });
  const remove = chip40.getByRole('button', { name: 'Remove trace key at 40' });
  const rb = (await remove.boundingBox())!;
  await page.mouse.click(rb.x + rb.width - 2, rb.y + rb.height - 2);
  await expect(chip40).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(chip40).toHaveCount(1);
  for (const f of frames) await expect(chips.filter({ hasText: new RegExp(`^${f}\\D`) })).toHaveCount(1);
});

test('in Tuning mode at 1280x800 a lock made in the timeline shows in the Locks list at once, without scrolling the panel', async ({
  page,
  workspace,
  electronApp,
}) => {
  if (!electronApp) await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await page.getByTestId('mode-tuning').click();
  // Late in the motion: its entry sorts below the ones the panel shows first (it was off-screen until scrolled to).
  const m = readMtn(new Uint8Array(readFileSync(workspace.path('walk.mtn'))));
  let start = 100;
  while ([0, 1, 2, 3, 4].some((d) => lockedJointAt(m, start - 1 + d) >= 0)) start++;
  await selectJoint(page, 'LeftFoot');
  await dragLockRow(page, start, start + 2);
  const item = page.getByTestId('lock-item').filter({ hasText: `LeftFoot frames ${start}–${start + 2}` });
  await expect(item).toHaveCount(1);
  // Whole inside every box that clips it: the list's own scroll, the tuning panel's scroll and the window.
  const clipped = () =>
    item.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const out: string[] = [];
      for (let p = el.parentElement; p; p = p.parentElement) {
        if (getComputedStyle(p).overflowY === 'visible') continue;
        const b = p.getBoundingClientRect();
        if (r.top < b.top - 0.5 || r.bottom > b.bottom + 0.5) out.push(p.className);
      }
      if (r.bottom > innerHeight) out.push('window');
      return out;
    });
  await expect.poll(clipped).toEqual([]);
  await expect(item).toHaveClass(/just-added/);
});
