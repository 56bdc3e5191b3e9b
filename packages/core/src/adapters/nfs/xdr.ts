/**
 * The sliver of XDR (RFC 4506) the NFS probes need: unsigned ints, strings and opaque data,
 * big-endian and padded to 4 bytes. Hand-written because no maintained npm package covers it.
 */
export class XdrWriter {
  private readonly parts: Buffer[] = [];

  u32(value: number): this {
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(value >>> 0);
    this.parts.push(buffer);
    return this;
  }

  opaque(data: Buffer): this {
    this.u32(data.length);
    this.parts.push(data, Buffer.alloc((4 - (data.length % 4)) % 4));
    return this;
  }

  string(value: string): this {
    return this.opaque(Buffer.from(value, 'utf8'));
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** Thrown when a reply is shorter or stranger than its XDR type allows. */
export class XdrError extends Error {
  override readonly name = 'XdrError';
}

export class XdrReader {
  private offset = 0;

  constructor(private readonly buffer: Buffer) {}

  u32(): number {
    if (this.offset + 4 > this.buffer.length) throw new XdrError('reply ends early');
    const value = this.buffer.readUInt32BE(this.offset);
    this.offset += 4;
    return value;
  }

  opaque(max = 1 << 20): Buffer {
    const length = this.u32();
    if (length > max || this.offset + length > this.buffer.length) throw new XdrError('opaque data runs past the reply');
    const data = this.buffer.subarray(this.offset, this.offset + length);
    this.offset += length + ((4 - (length % 4)) % 4);
    return data;
  }

  string(max?: number): string {
    return this.opaque(max).toString('utf8');
  }

  /** Passes over `count` 32-bit words without reading them (a bitmap we do not need). */
  skipWords(count: number): void {
    if (count > (this.buffer.length - this.offset) / 4) throw new XdrError('reply ends early');
    this.offset += count * 4;
  }
}
