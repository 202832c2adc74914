/**
 * A .sev the open project names outside its own folder is marked so beside its name in the SEV editor
 * (docs/security.md, round 35): a received project naming `../walk.sev` had the user edit, and save over, a file of
 * another folder while the editor showed only `walk.sev`. The project's own .sev is not marked.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { openProject } from './sev-ui';
import { waitForDocument } from './ui';

test('the SEV editor says when the project names a .sev outside its folder', async ({
  page,
  workspace,
  electronApp,
  saveScreenshot,
}) => {
  mkdirSync(workspace.path('received'));
  writeFileSync(
    workspace.path('received/p.actguy.json'),
    JSON.stringify({
      version: 1,
      motions: [{ name: 'walk', mtn: '../walk.mtn', sev: '../walk.sev' }],
      seTables: { sls: '../default.sls', seDefine: '../se_define.h' },
      outputs: { mar: 'out/s.mar', sar: 'out/s.sar' },
    }),
  );
  await waitForDocument(page);
  await openProject(page, electronApp, workspace, 'received/p.actguy.json');
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  const note = page.getByTestId('sev-outside');
  await expect(note).toHaveText('(outside the project)');
  await expect(note).toHaveAttribute('title', new RegExp(`outside its own folder: ${workspace.path('walk.sev')}`));
  await expect(note).toBeInViewport();
  const header = page.getByTestId('sev-editor').locator('.panel-header');
  const heights: number[] = [];
  for (const [width, height] of [
    [1280, 800],
    [1920, 1080],
  ]) {
    await page.setViewportSize({ width, height });
    await expect(note).toBeInViewport();
    heights.push((await header.boundingBox())!.height);
    await saveScreenshot(`sev-outside-${width}x${height}`);
  }
  // The sample project's own .sev is not marked.
  await openProject(page, electronApp, workspace, 'sample.actguy.json');
  await expect(page.getByTestId('project-motion')).toHaveCount(4);
  await expect(page.getByTestId('sev-file')).toContainText('walk.sev');
  await expect(page.getByTestId('sev-outside')).toHaveCount(0);
  // The note takes no second line of the panel's header at 1280x800 (the layout is the same as without it).
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('sev-file')).toBeInViewport();
  expect(heights[0]).toBe((await header.boundingBox())!.height);
  expect(heights[1]).toBe(heights[0]);
});
