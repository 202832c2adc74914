/**
 * The info messages a page showed, recorded as they show. An info message fades INFO_MS (6 s) after it shows
 * (renderer/components/infoTimers.ts): a check that runs after other awaited steps can find it gone on a loaded
 * machine, and one that looks for it among the messages shown can meet a later message on a fast one. The record is
 * kept by a MutationObserver installed before the action (it runs as the DOM changes, before any timer can fire), so a
 * check of it depends on neither (docs/testing.md, "Tests under load", rounds 6 and 8).
 */
import { expect, type Page } from '@playwright/test';

interface Recorder {
  shown: string[];
  observer: MutationObserver;
}

/**
 * Starts a new record of the info messages that show from now on (each one's text once, in the order they showed),
 * ending any record made before: install it before the action whose message is checked.
 */
export async function recordInfo(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __infoRecord?: Recorder };
    w.__infoRecord?.observer.disconnect();
    const shown: string[] = [];
    // A message is known by its id (MessageBar's data-message-id), not by its element: the bar's elements are made
    // again when the view around it is (another motion opening), and a message shown before the record began, made
    // again while it has not faded yet, is still that earlier action's.
    const seen = new Set<string>();
    const look = (record: boolean) =>
      document.querySelectorAll('[data-testid="message-info"]').forEach((m) => {
        const id = m.getAttribute('data-message-id');
        if (id === null) {
          shown.push('(an info message without data-message-id)');
          return;
        }
        if (seen.has(id)) return;
        seen.add(id);
        if (record) shown.push((m.querySelector('.message-text') ?? m).textContent ?? '');
      });
    // Messages shown already are an earlier action's: seen, not recorded.
    look(false);
    const observer = new MutationObserver(() => look(true));
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    w.__infoRecord = { shown, observer };
  });
}

/** The texts of the info messages shown since recordInfo. */
export function infoShown(page: Page): Promise<string[]> {
  return page.evaluate(() => [
    ...((window as unknown as { __infoRecord?: Recorder }).__infoRecord?.shown ?? ['(no record: call recordInfo)']),
  ]);
}

/**
 * Waits until the record holds an info message matching `text` (a part of it, or a RegExp); with `count`, exactly that
 * many (0: none, once the action's end is otherwise known: the record is complete up to that moment).
 */
export async function expectInfoShown(page: Page, text: string | RegExp, count?: number): Promise<void> {
  const matching = async () =>
    (await infoShown(page)).filter((t) => (typeof text === 'string' ? t.includes(text) : text.test(t))).length;
  const message = `info messages shown matching ${String(text)}`;
  if (count === undefined) await expect.poll(matching, { message }).toBeGreaterThan(0);
  else await expect.poll(matching, { message }).toBe(count);
}
