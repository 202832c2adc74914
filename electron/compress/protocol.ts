import type { CompressDelta, CompressRequest, CompressResponse } from '../../shared/ipc/compress';
import type { DocumentId } from '../../shared/ipc/documents';
import type { IpcErrorPayload } from '../../shared/ipc/transport';
import type { MshExportOptions } from '../../shared/msh/export';
import type { MshExportFiles } from '../../shared/msh/files';
import type { GlbExported, GlbExportJob } from '../interchange/glbExportJob';

/**
 * Messages between the compress client (main thread) and the compress worker.
 * The worker keeps each open document's motion; a compress job carries only
 * what edits change (see CompressRequest). An MSH export job runs in a
 * worker of its own (CompressClient.exportMsh): 'open' then 'exportMsh'; a glTF export's encoding likewise,
 * 'exportGlb' alone.
 */
export type ToCompressWorker =
  | { type: 'open'; documentId: DocumentId; name: string; mtnBytes: Uint8Array }
  | { type: 'close'; documentId: DocumentId }
  | { type: 'compress'; jobId: number; request: CompressRequest }
  | {
      type: 'exportMsh';
      jobId: number;
      documentId: DocumentId;
      options: MshExportOptions;
      names: { source: string; baseName: string };
    }
  /** File › Export glTF's encoding, in a worker of its own too (CompressClient.exportGlb): the job alone. */
  | ({ type: 'exportGlb'; jobId: number } & GlbExportJob);

export type FromCompressWorker =
  /** A delta only when the request named the revision of the last answer (CompressRequest.knownRevision). */
  | { type: 'result'; jobId: number; response: CompressResponse | CompressDelta }
  | { type: 'msh'; jobId: number; files: MshExportFiles }
  | ({ type: 'glb'; jobId: number } & GlbExported)
  | { type: 'error'; jobId: number; error: IpcErrorPayload }
  /** The job stopped early because the client asked (its abort word held the job id). */
  | { type: 'aborted'; jobId: number };

/**
 * The worker's `workerData`: a 4-byte SharedArrayBuffer whose Int32 word the
 * client sets to the id of the running job it no longer wants; the worker reads
 * it between channels (Atomics.load) and answers `aborted`.
 */
export interface CompressWorkerData {
  abortWord: SharedArrayBuffer;
  /**
   * The build's compression pool (electron/build/compressPool.ts) that an export of a long motion is compressed
   * on, in channel shares: its worker bundle and its number of jobs (one: exports compress in this worker).
   */
  pool?: { workerPath: string; jobs: number };
}
