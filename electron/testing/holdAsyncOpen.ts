/**
 * A seam for tests of writes made off the main thread (fsutil's asyncWriteIo): hold the first one at its open, so a
 * test orders writes by what it holds, never by timing. Each test file puts asyncWriteIo back after each test.
 */
import { asyncWriteIo } from '../fsutil';

/** asyncWriteIo's own calls, as they were when this module was loaded. */
const realOpen = asyncWriteIo.open;

/**
 * Holds the first write made off the main thread at its open until `release`; `reached` resolves once it is held.
 * Every later open goes at once, as a smaller file's write would overtake a larger one's. `opens` lists every open.
 */
export function holdFirstAsyncOpen(): { reached: Promise<void>; release: () => void; opens: string[] } {
  let release = (): void => undefined;
  const held = new Promise<void>((r) => (release = r));
  let reached = (): void => undefined;
  const atOpen = new Promise<void>((r) => (reached = r));
  const opens: string[] = [];
  asyncWriteIo.open = async (path, flags, mode) => {
    opens.push(path);
    if (opens.length === 1) {
      reached();
      await held;
    }
    return realOpen(path, flags, mode);
  };
  return { reached: atOpen, release, opens };
}
