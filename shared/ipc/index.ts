/**
 * The typed contract between the renderer and the main process (shared/ipc/api.ts), one module per API family.
 * This barrel re-exports them all; new code imports from the family module it needs.
 */
export * from './api';
export * from './backups';
export * from './compress';
export * from './documents';
export * from './drop';
export * from './interchange';
export * from './menu';
export * from './project';
export * from './transport';
