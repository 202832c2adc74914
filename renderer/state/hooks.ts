/** React bindings of the vanilla stores. */
import { useStore } from 'zustand';
import { documentStore, type DocumentState } from './documentStore';
import { sessionStore, type SessionState } from './sessionStore';
import { preferencesStore, type PreferencesState } from './preferencesStore';
import { compressionStore, type CompressionState } from './compressionStore';

export function useDocument<T>(selector: (s: DocumentState) => T): T {
  return useStore(documentStore, selector);
}
export function useSession<T>(selector: (s: SessionState) => T): T {
  return useStore(sessionStore, selector);
}
export function usePreferences<T>(selector: (s: PreferencesState) => T): T {
  return useStore(preferencesStore, selector);
}
export function useCompression<T>(selector: (s: CompressionState) => T): T {
  return useStore(compressionStore, selector);
}
