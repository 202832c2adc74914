/**
 * File > Export MSH on the bundled CMU capture: tolerances in the dialog, the
 * .res8 in the file dialog, then the three files read back with the shared
 * MSH reader (which runs every validation rule) and sampled against the source.
 */
import { existsSync, readFileSync } from 'node:fs';
import { expect, stubNativeDialogs, test } from './fixtures';
import { openThroughPicker, screenshotOf, waitForCapture, waitForDocument } from './ui';
import { rotationDistanceDeg } from '../shared/msh/export';
import { parseMshNodesJson } from '../shared/msh/nodesJson';
import { readMshAnimation } from '../shared/msh/read';
import { sampleMshNode } from '../shared/msh/sample';
import { readMtn } from '../shared/mtn/read';

test('File > Export MSH writes .res8, .res19 and .nodes.json of the CMU capture that validate and stay within the tolerances', async ({
  page,
  workspace,
  electronApp,
  pageErrors,
}, testInfo) => {
  test.setTimeout(180_000);
  await waitForDocument(page);
  await openThroughPicker(page, 'cmu_01_01.mtn');
  await waitForCapture(page);

  await page.getByTestId('menu-file').click();
  await page.getByTestId('menu-export-msh').click();
  const dialog = page.getByTestId('msh-export-options');
  await expect(dialog).toBeVisible();
  // The CLI's defaults first; a bad value is refused in place.
  await expect(dialog.getByTestId('msh-pos-tol')).toHaveValue('0.5');
  await expect(dialog.getByTestId('msh-rot-tol')).toHaveValue('0.5');
  await dialog.getByTestId('msh-rot-tol').fill('-1');
  await expect(dialog.getByTestId('msh-options-error')).toHaveText(
    'Rotation tolerance must be a number of degrees, 0 or more.',
  );
  await expect(dialog.getByTestId('msh-choose-file')).toBeDisabled();
  await dialog.getByTestId('msh-rot-tol').fill('0.75');
  await screenshotOf(dialog, testInfo.project.name, 'export-msh-options');

  if (electronApp) {
    await stubNativeDialogs(electronApp, { savePath: workspace.path('cmu_anim.res8') });
    await dialog.getByTestId('msh-choose-file').click();
  } else {
    await dialog.getByTestId('msh-choose-file').click();
    const picker = page.getByTestId('file-picker');
    await expect(picker).toBeVisible();
    await expect(picker).toContainText('Export MSH animation');
    await expect(picker.getByTestId('picker-name')).toHaveValue('cmu_01_01.res8');
    await picker.getByTestId('picker-name').fill('cmu_anim.res8');
    await picker.getByTestId('picker-ok').click();
    await expect(picker).toHaveCount(0);
  }
  // The fit runs in a worker: the message names the three files once they are all written.
  const done = page.getByTestId('message-info').filter({ hasText: 'Exported MSH animation:' });
  await expect(done).toHaveCount(1, { timeout: 120_000 });
  const prefix = workspace.path('cmu_anim');
  await expect(done).toContainText(`${prefix}.res8 (`);
  await expect(done).toContainText(`${prefix}.res19 (`);
  await expect(done).toContainText(`${prefix}.nodes.json (`);
  await expect(done).toContainText('688 frames');

  for (const ext of ['res8', 'res19', 'nodes.json']) expect(existsSync(`${prefix}.${ext}`), ext).toBe(true);
  const nodes = parseMshNodesJson(readFileSync(`${prefix}.nodes.json`, 'utf8'), `${prefix}.nodes.json`);
  expect([nodes.res8File, nodes.res19File, nodes.source]).toEqual(['cmu_anim.res8', 'cmu_anim.res19', 'cmu_01_01.mtn']);
  // readMshAnimation validates every rule of docs/formats.md 7 before returning.
  const anim = readMshAnimation(
    new Uint8Array(readFileSync(`${prefix}.res8`)),
    new Uint8Array(readFileSync(`${prefix}.res19`)),
    nodes.attrs,
    nodes.nodes,
  );
  const source = readMtn(new Uint8Array(readFileSync(workspace.path('cmu_01_01.mtn'))));
  const J = source.joints.length;
  expect(anim.nodes.map((n) => n.name)).toEqual(source.joints.map((j) => j.name));
  expect(anim.frameCount).toBe(source.frameCount + 1);
  let worstPos = 0;
  let worstRot = 0;
  for (let j = 0; j < J; j++)
    for (let f = 0; f <= source.frameCount; f++) {
      const s = sampleMshNode(anim, j, f);
      const p =
        j === 0
          ? source.translation.subarray(f * 4, f * 4 + 3)
          : source.offset.subarray((f * J + j) * 4, (f * J + j) * 4 + 3);
      worstPos = Math.max(worstPos, Math.hypot(s.position[0] - p[0], s.position[1] - p[1], s.position[2] - p[2]));
      worstRot = Math.max(
        worstRot,
        rotationDistanceDeg(s.rotation, source.rotation.subarray((f * J + j) * 4, (f * J + j) * 4 + 4)),
      );
    }
  expect(worstPos).toBeLessThanOrEqual(0.5);
  expect(worstRot).toBeLessThanOrEqual(0.75);
  // Fewer keys than frames: it is a compression, not a copy.
  expect(anim.keys.length).toBeLessThan(J * (source.frameCount + 1));
  expect(pageErrors).toEqual([]);
});
