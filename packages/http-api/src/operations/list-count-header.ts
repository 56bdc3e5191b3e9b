import { formatCount, listDefaults } from '@dms/core';

/**
 * Says whether a history list's `count` is every match or a lower bound: the audit and job lists
 * count at most `historyCountWindow` matches past the page's end (docs/decisions/186-history-list-counts.md).
 */
export const countHeader = 'Dms-Count';

/** The header's documentation, as the operations' answers declare it. */
export const countHeaderDescription = `\`exact\`: \`count\` is the number of matches; \`at_least\`: more match than \`count\`, which is the page's end plus ${formatCount(listDefaults.historyCountWindow)} (the list counts no further)`;

/** The answer's body, without the flag the core adds, and its header. */
export function withCountHeader<Body extends { count: number }>({ countIsLowerBound, ...body }: Body & { countIsLowerBound: boolean }) {
  return { body, headers: { [countHeader]: countIsLowerBound ? 'at_least' : 'exact' } };
}
