/**
 * The API family of compression (shared/ipc/api.ts): what an edit sends on every recompression and the answers.
 * The types are the compressor's own (shared/compress/request.ts); the API carries them as they are.
 */
export type { CompressTolerances } from '../compress/types';
export type {
  CompressDelta,
  CompressOutcome,
  CompressRequest,
  CompressResponse,
  CompressSuperseded,
} from '../compress/request';
