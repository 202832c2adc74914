/**
 * The compressor's output version. Bump it whenever the same motion and the
 * same CompressOptions can produce different MT3 bytes (a new fit, a changed
 * default, a fix): build caches key on it, so every cached result made by an
 * older compressor is recomputed. Assigned values never repeat.
 */
export const COMPRESSOR_VERSION = 15;
