export const ICON_SIZES: number[];
export function encodePng(size: number, rgba: Uint8Array): Buffer;
export function drawIcon(size: number): Uint8Array;
export function encodeIco(pngs: { size: number; png: Buffer }[]): Buffer;
export function encodeIcns(entries: { type: string; png: Buffer }[]): Buffer;
export function iconFiles(): Map<string, Buffer>;
