import { describe, expect, it } from 'vitest';
import { columnsOf } from './columns.js';

interface Row {
  id: number;
  name: string;
  comment: string | null;
}

describe('columnsOf', () => {
  it('issue 41, each table once: a store reads every column of its row, in the order written, and a column left out or unknown does not compile', () => {
    expect(columnsOf<Row>({ id: true, name: true, comment: true })).toEqual(['id', 'name', 'comment']);
    // @ts-expect-error a column of the row left out
    columnsOf<Row>({ id: true, name: true });
    // @ts-expect-error a column the row does not have
    columnsOf<Row>({ id: true, name: true, comment: true, price: true });
  });
});
