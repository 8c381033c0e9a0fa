import { describe, expect, it } from 'vitest';
import { operationOf } from './query-spans.js';

describe('operationOf (a SQL span name)', () => {
  it.each([
    ['select "id" from "bookings" where "tenant_id" = $1', 'SELECT'],
    ['  \n insert into x values ($1)', 'INSERT'],
    ['begin', 'BEGIN'],
    ['WITH a AS (select 1) select * from a', 'WITH'],
    ['', 'SQL'],
    ['-- comment\nselect 1', 'SQL'],
    ['(select 1)', 'SQL'],
  ])('%j → %s', (sql, expected) => {
    expect(operationOf(sql)).toBe(expected);
  });
});
