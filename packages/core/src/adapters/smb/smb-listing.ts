export interface ListingEntry {
  name: string;
  attributes: string;
  size: number;
  isDirectory: boolean;
  /** The last write time smbclient prints, to the second (read as UTC: smbclient runs with TZ=UTC). */
  modifiedMs: number;
}

// Sticky, tried once where the date must start: a line is read in time linear in it.
const dateTail = /  \S{3} (\S{3}) ([ \d]\d) (\d\d):(\d\d):(\d\d) (\d+)$/y;
/** "Www Mmm dd hh:mm:ss " before the year. */
const dateHeadLength = 20;
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function dateMs(match: RegExpExecArray): number | undefined {
  const month = months.indexOf(match[1] ?? '');
  if (month < 0) return undefined;
  const [day, hours, minutes, seconds, year] = match.slice(2, 7).map(Number) as [number, number, number, number, number];
  return Date.UTC(year, month, day, hours, minutes, seconds);
}

/**
 * Parses one entry line of smbclient's `ls`. smbclient prints it with
 * `"  %-30s%7.7s %8.0f  %s"` (name, attributes, size, date), so it is read from the right:
 * the date, then the size (at least 8 wide), one space, exactly 7 attribute columns, and the
 * name is whatever remains — spaces and all. `-g` does not change this format.
 */
export function parseListingEntry(line: string): ListingEntry | undefined {
  if (!line.startsWith('  ')) return undefined;
  dateTail.lastIndex = line.lastIndexOf(' ') + 1 - dateHeadLength - 2;
  if (dateTail.lastIndex < 0) return undefined;
  const date = dateTail.exec(line);
  if (date === null) return undefined;
  const head = line.slice(0, date.index);
  let digitsStart = head.length;
  while (digitsStart > 0 && head.charCodeAt(digitsStart - 1) >= 48 && head.charCodeAt(digitsStart - 1) <= 57) digitsStart -= 1;
  if (digitsStart === head.length) return undefined;
  const digits = head.slice(digitsStart);
  const sizeStart = head.length - Math.max(8, digits.length);
  const attrEnd = sizeStart - 1;
  const attrStart = attrEnd - 7;
  if (attrStart < 2 || head[attrEnd] !== ' ' || head.slice(sizeStart, head.length - digits.length).trim() !== '') return undefined;
  const attributes = head.slice(attrStart, attrEnd).trim();
  if (!/^[A-Z]*$/.test(attributes)) return undefined;
  const modifiedMs = dateMs(date);
  if (modifiedMs === undefined) return undefined;
  return {
    // Names under 30 characters are padded; a real trailing space cannot be told apart.
    name: head.slice(2, attrStart).replace(/ +$/, ''),
    attributes,
    size: Number(digits),
    isDirectory: attributes.includes('D'),
    modifiedMs,
  };
}

/** Deeper than this is taken for a symlink loop on the server, which smbclient would follow. */
export const maxListingDepth = 256;
