/** Types shared by the project handlers (re-exported from the IPC contract for one import line). */
import type { ActGuyInvokeMember } from '../../shared/ipc/api';
import type { InvokeArg, InvokeResult } from '../../shared/ipc/transport';

export type {
  BuildProblem,
  OpenProjectOutcome,
  ProjectFilePurpose,
  SavedFile,
  SoundFolderListing,
} from '../../shared/ipc';

/** A subset of the API's invoke members as functions of their one argument (the shape electron/handlers.ts serves). */
export type ApiHandlersOf<M extends ActGuyInvokeMember> = { [K in M]: (arg: InvokeArg<K>) => Promise<InvokeResult<K>> };
