/**
 * A first-time user reads the tuning panel by its labels: the rotation override field names the joint and what it
 * replaces, and the lock and trace-key entries say where a click takes them.
 */
import { expect, test } from './fixtures';
import { canvasData, frameX, selectJoint, waitForDocument } from './ui';

test('the rotation override field, the lock ranges and the trace keys say what they are', async ({ page }) => {
  await waitForDocument(page);
  await selectJoint(page, 'LeftFoot');
  const field = page.getByRole('spinbutton', { name: /^Rotation tolerance of LeftFoot \(°\), in place of the global/ });
  await expect(field).toHaveAttribute('data-testid', 'override-input');
  await expect(field).toHaveAttribute('title', /^Rotation tolerance of LeftFoot/);
  await selectJoint(page, 'Neck');
  await expect(page.getByRole('spinbutton', { name: /^Rotation tolerance of Neck / })).toBeVisible();

  const lock = page.getByTestId('lock-item').first().getByRole('button').first();
  await expect(lock).toHaveText('LeftFoot frames 5–12');
  await expect(lock).toHaveAttribute('title', "Go to frame 5 and show LeftFoot's rotation curves");
  await lock.click();
  await expect(page.getByTestId('frame-number')).toHaveValue('5');

  const trace = page.getByTestId('trace-item').first().getByRole('button').first();
  await expect(trace).toHaveText('44');
  await expect(trace).toHaveAttribute('title', 'Go to frame 44');
  await trace.click();
  await expect(page.getByTestId('frame-number')).toHaveValue('44');
  // The first and last frames are always trace keys: their chips have nothing to remove (e2e/cold-start.spec.ts).
  await expect(page.getByRole('button', { name: 'Remove trace key at 0' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Remove trace key at 44' })).toHaveAttribute(
    'title',
    'Remove the trace key at frame 44',
  );
});

test("the timeline's lock row names the lock under the pointer whole (its bar cuts the name)", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await waitForDocument(page);
  await selectJoint(page, 'Neck');
  const canvas = page.getByTestId('timeline-canvas');
  const box = (await canvas.boundingBox())!;
  const y = box.y + Number((await canvasData(canvas)).lockRowY);
  await page.mouse.move(box.x + (await frameX(canvas, 8)), y);
  await expect(canvas).toHaveAttribute(
    'title',
    'LeftFoot locked at frames 5–12 · drag over it with LeftFoot selected to clear',
  );
  await page.mouse.move(box.x + (await frameX(canvas, 15)), y);
  await expect(canvas).toHaveAttribute(
    'title',
    'Frame 15 · drag to lock Neck (the selected joint) over the frames dragged',
  );
  // Off the lock row: no tooltip of its own (the joint rows paint theirs).
  await page.mouse.move(box.x + (await frameX(canvas, 15)), y + 60);
  await expect(canvas).toHaveAttribute('title', '');
});
