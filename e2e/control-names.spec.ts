import { expect, test } from './fixtures';
import { openSampleProject } from './sev-ui';

/**
 * Every control a screen reader or a voice command reaches has a name with a word or a number in it. A button drawn
 * as a symbol alone (▲, ▶, ⌖) was named by the symbol ("black up-pointing triangle"): its tooltip is a description,
 * not its name. The curve view and timeline (their own painters and menus) are left to their own specs.
 */
test('the controls of the window with a project and its .sev open each have a name that says something', async ({
  page,
  workspace,
  electronApp,
}) => {
  await openSampleProject(page, workspace, electronApp);
  await expect(page.getByTestId('sev-event-play').first()).toBeVisible();
  // An event's floor variants, each with its ▶.
  await page.getByTestId('sev-event-floors-toggle').first().click();
  await expect(page.getByTestId('sev-event-floor-play').first()).toBeVisible();
  const unnamed = await page.evaluate(() => {
    const text = (el: Element | null) => el?.textContent?.trim() ?? '';
    const nameOf = (el: HTMLElement): string => {
      const label = el.getAttribute('aria-label');
      if (label) return label;
      const by = el.getAttribute('aria-labelledby');
      if (by)
        return by
          .split(/\s+/)
          .map((id) => text(document.getElementById(id)))
          .join(' ');
      if (el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement) {
        const labels = Array.from(el.labels ?? [])
          .map(text)
          .join(' ');
        return labels || el.title || el.getAttribute('placeholder') || '';
      }
      return text(el) || el.title;
    };
    return Array.from(
      document.querySelectorAll<HTMLElement>('button, input, select, textarea, [role="button"], [role="spinbutton"]'),
    )
      .filter((el) => el.getClientRects().length > 0 && !el.closest('.area-curves, .area-timeline'))
      .filter((el) => !/[\p{L}\p{N}]/u.test(nameOf(el)))
      .map((el) => `${el.dataset.testid ?? el.tagName} "${nameOf(el)}"`);
  });
  expect([...new Set(unnamed)]).toEqual([]);
});
