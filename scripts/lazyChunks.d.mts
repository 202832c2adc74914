export const LAZY_CHUNKS: { module: string; file: string }[];
