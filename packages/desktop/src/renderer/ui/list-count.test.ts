import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ListCount } from './list-screen.js';
import { Pager } from './pager.js';

/** What a reader sees: the markup's text, without tags and React's text separators. */
const text = (markup: string) => markup.replace(/<!-- -->/g, '').replace(/<[^>]+>/g, '');

describe('a history list whose count is a lower bound (docs/decisions/186-history-list-counts.md)', () => {
  it('issue 48: says "More than" and "+" for a lower bound, the exact count as it is', () => {
    const noop = () => undefined;
    const pager = (atLeast: boolean) =>
      text(renderToStaticMarkup(createElement(Pager, { label: 'Jobs', page: 2, perPage: 25, count: 10_050, atLeast, onPage: noop })));
    expect(pager(true)).toContain('Page 2 of 402+ (26–50 of 10050+)');
    expect(pager(false)).toContain('Page 2 of 402 (26–50 of 10050)');
    const count = (atLeast: boolean, filtered: boolean) =>
      text(renderToStaticMarkup(createElement(ListCount, { count: 10_050, atLeast, noun: 'event', filtered, onRefresh: noop })));
    expect(count(true, true)).toContain('More than 10,050 events match the filter');
    expect(count(false, false)).toContain('10,050 events');
    expect(count(false, false)).not.toContain('More than');
  });
});
