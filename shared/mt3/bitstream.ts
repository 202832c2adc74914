import { FormatError } from '../errors';

/**
 * The MT3 bit stream (docs/formats.md 2.2): LSB-first over 16-bit little-endian
 * words. Bit i of a stream is bit (i mod 16) of its word (i div 16); an n-bit
 * field is stored lowest bit first; every stream starts on a word boundary and
 * the unused bits of its last word are zero.
 */

/** Accumulates fields into 16-bit words; `align()` closes a stream on a word boundary. */
export class BitWriter {
  private words: Uint16Array;
  /** Bits written so far (absolute position in the pack). */
  private bitPos = 0;

  constructor(initialWords = 256) {
    this.words = new Uint16Array(Math.max(1, initialWords));
  }

  /** Current position in words (only meaningful after align()). */
  get wordLength(): number {
    return (this.bitPos + 15) >>> 4;
  }

  /** Writes the low `n` bits of `value` (1 <= n <= 16), lowest bit first. */
  write(value: number, n: number): void {
    if (!(n >= 1 && n <= 16)) throw new RangeError(`bit field width ${n} outside 1..16`);
    let v = value & ((1 << n) - 1);
    let left = n;
    while (left > 0) {
      const wi = this.bitPos >>> 4;
      if (wi >= this.words.length) this.grow();
      const bo = this.bitPos & 15;
      const take = Math.min(left, 16 - bo);
      this.words[wi] |= (v & ((1 << take) - 1)) << bo;
      v >>>= take;
      left -= take;
      this.bitPos += take;
    }
  }

  /** Pads with zero bits to the next word boundary (a stream ends here). */
  align(): void {
    this.bitPos = (this.bitPos + 15) & ~15;
    if (this.bitPos >>> 4 > this.words.length) this.grow();
  }

  /** Appends whole words at a word boundary: a stream written before (writeMt3's stream memo). */
  appendWords(src: Uint16Array): void {
    if (this.bitPos & 15) throw new RangeError('appendWords: not at a word boundary (align() first)');
    const at = this.bitPos >>> 4;
    while (at + src.length > this.words.length) this.grow();
    this.words.set(src, at);
    this.bitPos += src.length * 16;
  }

  /** The words from word `start` to the current position (call align() first). */
  wordsFrom(start: number): Uint16Array {
    return this.words.slice(start, this.wordLength);
  }

  /** The words written so far (call align() first). */
  toWords(): Uint16Array {
    return this.words.slice(0, this.wordLength);
  }

  private grow(): void {
    const next = new Uint16Array(this.words.length * 2);
    next.set(this.words);
    this.words = next;
  }
}

/**
 * Reads fields from one stream of a pack, bounded to the words
 * [startWord, endWord): reading past the end throws FormatError('MT3') with
 * the byte offset in the file, so corrupt input can never read out of range.
 */
export class BitReader {
  private bitPos: number;
  private readonly startBit: number;
  private readonly endBit: number;

  /**
   * @param dv view over the whole MT3 file
   * @param packByteOffset file byte offset of pack word 0 (dataOffset)
   * @param startWord first word of the stream (pack words)
   * @param endWord word after the last one the stream may use (pack words)
   * @param streamName for messages, e.g. "rotation stream of joint 3"
   */
  constructor(
    private readonly dv: DataView,
    private readonly packByteOffset: number,
    startWord: number,
    endWord: number,
    private readonly streamName: string,
  ) {
    this.bitPos = startWord * 16;
    this.startBit = this.bitPos;
    this.endBit = endWord * 16;
  }

  /** Absolute bit position in the pack. */
  get position(): number {
    return this.bitPos;
  }

  /** Bits left before the stream's end. */
  get bitsLeft(): number {
    return this.endBit - this.bitPos;
  }

  /** File byte offset of the word holding the current bit (for messages). */
  get fileOffset(): number {
    return this.packByteOffset + (this.bitPos >>> 4) * 2;
  }

  /** Reads an n-bit unsigned field (1 <= n <= 16), lowest bit first. */
  read(n: number): number {
    if (this.bitPos + n > this.endBit) {
      throw new FormatError(
        'MT3',
        `${this.streamName} runs past its end: needs ${n} more bits at bit ${this.bitPos - this.startBit} of the stream but the stream ends at word ${this.endBit >>> 4} of the pack`,
        { offset: this.fileOffset },
      );
    }
    let result = 0;
    let got = 0;
    while (got < n) {
      const wi = this.bitPos >>> 4;
      const bo = this.bitPos & 15;
      const take = Math.min(n - got, 16 - bo);
      const word = this.dv.getUint16(this.packByteOffset + wi * 2, true);
      result |= ((word >>> bo) & ((1 << take) - 1)) << got;
      got += take;
      this.bitPos += take;
    }
    return result;
  }

  /**
   * Closes a stream that is followed by another inside the same bounds (the
   * joint offset streams): the rest of the current word must be zero bits and
   * the position moves to the next word boundary.
   */
  alignTo(): void {
    const bo = this.bitPos & 15;
    if (bo === 0) return;
    const wi = this.bitPos >>> 4;
    const word = this.dv.getUint16(this.packByteOffset + wi * 2, true);
    if (word >>> bo !== 0)
      throw new FormatError(
        'MT3',
        `${this.streamName}: the unused bits of its last word must be zero, found 0x${word.toString(16).padStart(4, '0')}`,
        { offset: this.packByteOffset + wi * 2 },
      );
    this.bitPos += 16 - bo;
  }

  /**
   * Ends the stream: the rest of the current word must be zero bits, and the
   * stream must end exactly at its bound (streams lie back to back).
   */
  finish(): void {
    this.alignTo();
    if (this.bitPos !== this.endBit) {
      const extra = (this.endBit - this.bitPos) >>> 4;
      throw new FormatError(
        'MT3',
        `${this.streamName} ends at pack word ${this.bitPos >>> 4} but the next stream starts at word ${this.endBit >>> 4} (${extra} unused words; streams lie back to back)`,
        { offset: this.fileOffset },
      );
    }
  }
}
