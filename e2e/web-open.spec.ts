/** `npm run web -- --open FILE` opens a project or a .sev the way `npm start -- FILE` does. */
import { expect, test } from './fixtures';
import { startLoopbackChild, stopChild } from './fixtures';
import { waitForDocument } from './ui';

for (const [file, motion] of [
  ['sample.actguy.json', 'walk'],
  ['cmu_01_01.sev', 'cmu_01_01'],
] as const) {
  test(`--open ${file} opens the project${file.endsWith('.sev') ? ' that lists the .sev, on its motion' : ''}`, async ({
    appMode,
    loopbackBrowser,
    workspace,
  }) => {
    test.skip(appMode !== 'loopback', "the --open option is the loopback server's");
    const { child, handle } = await startLoopbackChild(workspace.dir, ['--open', file]);
    try {
      const context = await loopbackBrowser!.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(handle.url);
      await expect(page.getByTestId('project-motion')).toHaveCount(4, { timeout: 30_000 });
      await waitForDocument(page, motion);
      await expect(page.getByTestId('sev-file')).toContainText(`${motion}.sev`);
      await expect(page.getByText(/not a motion file|Open failed/)).toHaveCount(0);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      await stopChild(child);
    }
  });
}
