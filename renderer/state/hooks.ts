/** React bindings of the vanilla stores. */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import type { Motion } from '../../shared/motion/types';
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

/** What most panels need of the open motion: its skeleton and its length. */
export type MotionShape = Pick<Motion, 'joints' | 'frameCount'>;

/**
 * The open motion's skeleton and length, or null. Unlike `d.motion` it keeps its identity across key-info edits,
 * so a panel that only shows joint names and frame ranges does not re-render on every key toggle.
 */
export function useMotionShape(): MotionShape | null {
  const joints = useDocument((d) => d.motion?.joints ?? null);
  const frameCount = useDocument((d) => d.motion?.frameCount ?? -1);
  return useMemo(() => (joints ? { joints, frameCount } : null), [joints, frameCount]);
}
