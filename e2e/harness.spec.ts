import { expect, test } from './fixtures';

/**
 * Checks of the harness itself: the renderer loads over the chosen transport and
 * the loopback server guards its API. Product scenarios live in the other specs.
 */
test('the renderer starts on the workspace sample without page errors', async ({
  page,
  pageErrors,
  saveScreenshot,
}) => {
  await expect(page.locator('#root')).not.toBeEmpty();
  const info = await page.evaluate(async () => {
    const w = window as unknown as { actguy?: unknown };
    return { electron: w.actguy !== undefined, title: document.title };
  });
  expect(info.title).toContain('ActGuy');
  await saveScreenshot('harness-start');
  expect(pageErrors).toEqual([]);
});

test('the loopback API refuses requests without the token and unknown members', async ({ server, page, request }) => {
  test.skip(!server, 'loopback only');
  const origin = server!.origin;
  expect((await request.post(`${origin}/rpc/getAppInfo`)).status()).toBe(403);
  expect(
    (await request.post(`${origin}/rpc/readFile`, { headers: { 'X-ActGuy-Token': server!.token } })).status(),
  ).toBe(404);
  expect((await request.get(`${origin}/`)).status()).toBe(403);
  await expect(page.locator('#root')).not.toBeEmpty();
});
