import { describe, expect, it } from 'vitest';
import { withCountHeader } from './list-count-header.js';

describe('Dms-Count (docs/decisions/186-history-list-counts.md)', () => {
  it('says at_least for a lower bound and exact otherwise, the flag never in the body', () => {
    expect(withCountHeader({ count: 10_020, jobs: [], countIsLowerBound: true })).toEqual({
      body: { count: 10_020, jobs: [] },
      headers: { 'Dms-Count': 'at_least' },
    });
    expect(withCountHeader({ count: 3, audit_events: [], countIsLowerBound: false })).toEqual({
      body: { count: 3, audit_events: [] },
      headers: { 'Dms-Count': 'exact' },
    });
  });
});
