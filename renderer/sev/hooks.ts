/** React bindings of the SEV, project and audition stores. */
import { useStore } from 'zustand';
import { sevStore, type SevState } from './sevStore';
import { auditionStore, type AuditionState } from './audition';
import { projectStore, type ProjectState } from '../project/projectStore';

export function useSev<T>(selector: (s: SevState) => T): T {
  return useStore(sevStore, selector);
}
export function useProject<T>(selector: (s: ProjectState) => T): T {
  return useStore(projectStore, selector);
}
export function useAudition<T>(selector: (s: AuditionState) => T): T {
  return useStore(auditionStore, selector);
}
