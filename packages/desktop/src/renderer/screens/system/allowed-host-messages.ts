const field = 'share_test_allowed_hosts';

/** The textarea's lines as the list the core takes: one entry a line, blank lines left out. */
export function hostEntries(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/**
 * A core message about the list in the words of the textarea: `share_test_allowed_hosts[1] must
 * be …` names the entry itself ("“bad host!” must be …"), a message about the whole list says "The list".
 */
export function entryMessage(message: string, entries: readonly string[]): string {
  const item = new RegExp(`^${field}\\[(\\d+)\\]`).exec(message);
  if (item) {
    const entry = entries[Number(item[1])];
    return `${entry === undefined ? `Entry ${Number(item[1]) + 1}` : `“${entry}”`}${message.slice(item[0].length)}`;
  }
  return message.startsWith(`${field} `) ? `The list ${message.slice(field.length + 1)}` : message;
}
