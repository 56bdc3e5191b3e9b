import { DriverError, type ScanProgress } from '../../ports/share-driver.js';

export interface ListingEntry {
  name: string;
  attributes: string;
  size: number;
  isDirectory: boolean;
}

const dateTail = /  \S{3} \S{3} [ \d]\d \d\d:\d\d:\d\d \d+$/;

/**
 * Parses one entry line of smbclient's `ls`. smbclient prints it with
 * `"  %-30s%7.7s %8.0f  %s"` (name, attributes, size, date), so it is read from the right:
 * the date, then the size (at least 8 wide), one space, exactly 7 attribute columns, and the
 * name is whatever remains — spaces and all. `-g` does not change this format.
 */
export function parseListingEntry(line: string): ListingEntry | undefined {
  if (!line.startsWith('  ')) return undefined;
  const date = dateTail.exec(line);
  if (date === null) return undefined;
  const head = line.slice(0, date.index);
  const digits = /\d+$/.exec(head)?.[0];
  if (digits === undefined) return undefined;
  const sizeStart = head.length - Math.max(8, digits.length);
  const attrEnd = sizeStart - 1;
  const attrStart = attrEnd - 7;
  if (attrStart < 2 || head[attrEnd] !== ' ' || head.slice(sizeStart, head.length - digits.length).trim() !== '') return undefined;
  const attributes = head.slice(attrStart, attrEnd).trim();
  if (!/^[A-Z]*$/.test(attributes)) return undefined;
  return {
    // Names under 30 characters are padded; a real trailing space cannot be told apart.
    name: head.slice(2, attrStart).replace(/ +$/, ''),
    attributes,
    size: Number(digits),
    isDirectory: attributes.includes('D'),
  };
}

/** Deeper than this is taken for a symlink loop on the server, which smbclient would follow. */
export const maxListingDepth = 256;

/**
 * Totals of a `recurse ON; ls` listing. Directory headers (`\sub\dir`) count directories and
 * bound the depth; entries count every non-directory (`.` and `..` are directories).
 */
export class ListingCounter {
  // The start directory is listed without a header line, hence one directory from the outset.
  readonly totals: ScanProgress = { file_count: 0, file_size_sum: 0, directories: 1 };
  private readonly baseDepth: number;

  constructor(startDir: string) {
    this.baseDepth = startDir.split('/').filter(Boolean).length;
  }

  /** Returns false for lines that are neither entries nor headers (errors, summaries, noise). */
  line(line: string): boolean {
    if (line.startsWith('\\')) {
      this.totals.directories += 1;
      const depth = line.split('\\').filter(Boolean).length - this.baseDepth;
      if (depth > maxListingDepth) {
        throw new DriverError(`directories nest deeper than ${maxListingDepth} levels under '${line}' (a symbolic link loop on the server?)`);
      }
      return true;
    }
    if (!line.startsWith('  ')) return false;
    const entry = parseListingEntry(line);
    if (entry === undefined) throw new DriverError(`could not read smbclient's listing line '${line.trim()}'`);
    if (!entry.isDirectory) {
      this.totals.file_count += 1;
      this.totals.file_size_sum += entry.size;
    }
    return true;
  }
}
