import type { ActGuyApi } from '../../shared/ipc';

/**
 * A fake main process for controller tests: the members a test gives, a
 * closeDocument that succeeds, and every other member rejecting with
 * "not in this test" so an unexpected call fails the test loudly.
 */
export function fakeApi(overrides: Partial<ActGuyApi>): ActGuyApi {
  const fail = () => Promise.reject(new Error('not in this test'));
  return new Proxy(overrides as ActGuyApi, {
    get: (t, k: string) =>
      k in t ? (t as unknown as Record<string, unknown>)[k] : k === 'closeDocument' ? () => Promise.resolve() : fail,
  });
}
