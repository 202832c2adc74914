/**
 * The screenshots of docs/user-guide.md, taken by the app itself at 1280x800 (and 1920x1080 for the
 * layout check): the tuner, the sound-events editor and the project mode on the sample project.
 * Written to docs/images/*.png so the guide always shows the app as it behaves.
 */
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { repoRoot } from './electron-binary';
import { openSampleProject } from './sev-ui';
import { animationFrames, waitForCompression } from './ui';

const DOCS_IMAGES = join(repoRoot, 'docs', 'images');

for (const size of [{ width: 1280, height: 800 }, { width: 1920, height: 1080 }]) {
  test(`user guide screenshots at ${size.width}x${size.height}`, async ({ page, workspace, electronApp, saveScreenshot }) => {
    test.skip(!!electronApp, 'the guide is shot once, in Chromium');
    await page.setViewportSize(size);
    await openSampleProject(page, workspace, electronApp);
    const shoot = async (name: string) => {
      await page.mouse.move(1, 1);
      await animationFrames(page, 4);
      const path = await saveScreenshot(`${name}-${size.width}x${size.height}`);
      if (size.width === 1280) await page.screenshot({ path: join(DOCS_IMAGES, `${name}.png`) });
      return path;
    };
    await page.keyboard.press('Control+1');
    await waitForCompression(page);
    await shoot('tuner');
    await page.keyboard.press('Control+2');
    await expect(page.getByTestId('sev-track')).toBeVisible();
    await page.locator('[data-testid="sev-marker"][data-index="1"]').click();
    await shoot('sound-events');
    await page.getByTestId('mode-project').click();
    await shoot('project');
  });
}
