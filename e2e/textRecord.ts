/**
 * The texts elements showed, recorded as they change. A text that changes on its own (the SE last played and the frame
 * while the motion plays) shows each state only for a while: a check polled at some moment meets what shows then, which
 * a loaded machine's fewer, later polls can miss. The record is kept by a MutationObserver installed before the action
 * (it runs as the page changes the element), so no state between two polls is lost (docs/testing.md, "Tests under
 * load, round 9"; e2e/infoRecord.ts does the same for the info messages).
 */
import type { Page } from '@playwright/test';

interface Recorder {
  changes: Record<string, string[]>;
  observer: MutationObserver;
}

/**
 * Starts a new record of the texts the elements `testIds` show from now on: each text one changes to, once, in order
 * (the text it shows now is not recorded). Ends any record made before.
 */
export async function recordTexts(page: Page, testIds: string[]): Promise<void> {
  await page.evaluate((ids) => {
    const w = window as unknown as { __textRecord?: Recorder };
    w.__textRecord?.observer.disconnect();
    const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
    const changes: Record<string, string[]> = {};
    const last: Record<string, string | null> = {};
    for (const id of ids) {
      changes[id] = [];
      last[id] = text(id);
    }
    const observer = new MutationObserver(() => {
      for (const id of ids) {
        const now = text(id);
        if (now !== null && now !== last[id]) changes[id].push(now);
        last[id] = now;
      }
    });
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    w.__textRecord = { changes, observer };
  }, testIds);
}

/** The texts the element `testId` changed to since recordTexts. */
export function textsShown(page: Page, testId: string): Promise<string[]> {
  return page.evaluate(
    (id) => [
      ...((window as unknown as { __textRecord?: Recorder }).__textRecord?.changes[id] ?? [
        `(no record of ${id}: call recordTexts)`,
      ]),
    ],
    testId,
  );
}
