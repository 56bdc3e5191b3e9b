/**
 * Root trace ids drawn as OpenTelemetry's RandomIdGenerator draws them (four random 32-bit words,
 * big-endian, never all zero) and decided as TraceIdRatioBasedSampler decides them (the words
 * XORed, under the ratio's bound), from the words: the sampler would parse back the hex the
 * generator wrote, for every request, and at 10 % nine in ten reads need no id at all
 * (docs/decisions/201-root-trace-ids-decided-as-words.md). root-trace-ids.test.ts holds both to
 * the SDK's.
 */
export class RootTraceIdRatio {
  readonly #upperBound: number;
  /** The last id drawn, as its bytes. */
  readonly #bytes = Buffer.alloc(16);

  /** `ratio` from 0 to 1, as OTEL_TRACES_SAMPLER_ARG gives it. */
  constructor(ratio: number) {
    this.#upperBound = ratio >= 1 ? 2 ** 32 : Math.floor(Math.max(0, ratio) * 0xffffffff);
  }

  /** Draws the next root trace id, and answers whether the ratio samples it. */
  draw(): boolean {
    let accumulated = 0;
    for (let offset = 0; offset < 16; offset += 4) {
      const word = (Math.random() * 2 ** 32) >>> 0;
      this.#bytes.writeUInt32BE(word, offset);
      accumulated = (accumulated ^ word) >>> 0;
    }
    // An id of zeros is invalid: the generator makes its last byte 1, which changes the XOR alike.
    if (accumulated === 0 && this.#bytes.every((byte) => byte === 0)) {
      this.#bytes[15] = 1;
      accumulated = 1;
    }
    return accumulated < this.#upperBound;
  }

  /** The id last drawn, as 32 lowercase hex digits. */
  traceId(): string {
    return this.#bytes.toString('hex');
  }
}
