/**
 * Clicking a joint in the 3D viewport selects it. The test computes the joint's world position itself (forward
 * kinematics of the .mtn at the drawn frame, renderer/math/pose.ts) and projects it with the camera the canvas
 * publishes (data-view-projection), so it checks the picking against an independent placement.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { animationFrames, waitForDocument } from './ui';
import { readMtn } from '../shared/mtn/read';
import { createPoseBuffers, parentsOf, solvePose, sourceOffset, sourceRotation } from '../renderer/math/pose';

test('clicking a joint in the viewport selects it; clicking empty floor keeps the selection', async ({
  page,
  workspace,
  pageErrors,
  saveScreenshot,
}) => {
  await waitForDocument(page);
  const canvas = page.getByTestId('viewport-canvas');
  await expect(canvas).toHaveAttribute('data-view-projection', /,/);
  await expect(canvas).toHaveAttribute('data-frame', '0');
  // let Frame all / follow settle: the camera no longer moves between two paints
  let vpText = '';
  await expect
    .poll(
      async () => {
        const now = (await canvas.getAttribute('data-view-projection')) ?? '';
        const same = now === vpText;
        vpText = now;
        return same;
      },
      { intervals: [250, 250, 250, 500] },
    )
    .toBe(true);

  const bytes = readFileSync(workspace.path('walk.mtn'));
  const m = readMtn(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const parents = parentsOf(m);
  const pose = createPoseBuffers(parents.length);
  solvePose(parents, m.translation.subarray(0, 3), sourceRotation(m, 0), sourceOffset(m, 0), pose);
  const e = vpText.split(',').map(Number);
  const box = (await canvas.boundingBox())!;
  const screen = (j: number) => {
    const [x, y, z] = [pose.positions[j * 3], pose.positions[j * 3 + 1], pose.positions[j * 3 + 2]];
    const cx = e[0] * x + e[4] * y + e[8] * z + e[12];
    const cy = e[1] * x + e[5] * y + e[9] * z + e[13];
    const cw = e[3] * x + e[7] * y + e[11] * z + e[15];
    return { x: box.x + ((cx / cw + 1) / 2) * box.width, y: box.y + ((1 - cy / cw) / 2) * box.height };
  };
  const points = Array.from({ length: parents.length }, (_, j) => screen(j));
  const selectedName = () => page.getByTestId('timeline-selected').textContent();
  const before = await selectedName();

  // The joint farthest from every other joint on screen (no ambiguity about the nearest one), not the selected one.
  const isolation = (j: number) =>
    Math.min(...points.map((p, k) => (k === j ? Infinity : Math.hypot(p.x - points[j].x, p.y - points[j].y))));
  const candidates = points
    .map((_, j) => j)
    .filter(
      (j) =>
        m.joints[j].name !== before &&
        points[j].x > box.x + 20 &&
        points[j].x < box.x + box.width - 20 &&
        points[j].y > box.y + 20 &&
        points[j].y < box.y + box.height - 20,
    );
  expect(candidates.length).toBeGreaterThan(0);
  const target = candidates.reduce((a, b) => (isolation(b) > isolation(a) ? b : a));
  expect(isolation(target)).toBeGreaterThan(4);
  await page.mouse.click(points[target].x, points[target].y);
  await expect(page.getByTestId('timeline-selected')).toHaveText(m.joints[target].name);
  await expect(page.getByTestId('viewport-joint-label')).toHaveText(m.joints[target].name);
  await saveScreenshot('viewport-pick');

  // A click far from every joint selects nothing new.
  const far = { x: box.x + 30, y: box.y + box.height - 30 };
  expect(Math.min(...points.map((p) => Math.hypot(p.x - far.x, p.y - far.y)))).toBeGreaterThan(40);
  await page.mouse.click(far.x, far.y);
  await animationFrames(page, 12);
  await expect(page.getByTestId('timeline-selected')).toHaveText(m.joints[target].name);
  expect(pageErrors).toEqual([]);
});
