/**
 * One large buffer kept from one scrape to the next for the text being written: 10,000 shares'
 * text is ~8.5 MB, and a new buffer of that size at each scrape cost ~7 ms of page faults and
 * weighed on V8's collector (external memory). Taken by a scrape and given back once nothing
 * reads it any more (its gzip done); a scrape while another holds it gets a buffer of its own.
 * Only the bytes a scrape wrote are ever sent.
 */
export class ScratchBuffer {
  #kept: Buffer | undefined;

  /** A buffer of at least `bytes`: the kept one when it fits and is not more than twice that (a shrunk share count lets it go). */
  take(bytes: number): Buffer {
    const kept = this.#kept;
    this.#kept = undefined;
    if (kept !== undefined && kept.length >= bytes && kept.length <= 2 * bytes + 65_536) return kept;
    // A little more than asked: the next scrape, with a few more shares or longer values, still fits.
    return Buffer.allocUnsafeSlow(Math.ceil(bytes * 1.125));
  }

  /** Gives back a buffer from `take` whose bytes nothing reads any more. */
  give(buffer: Buffer): void {
    this.#kept = buffer;
  }
}
