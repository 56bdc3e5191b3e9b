/**
 * Filter values of list queries (docs/api.md#lists): a plain value is compared for equality, a
 * helper adds its operator. `{ name: like('proj%'), id: gt(10) }` is `name=~proj%&id=>10`;
 * `{ name: iLike('proj%') }` is `name=~*proj%`, ignoring the case of ASCII letters.
 */
export class FilterExpression {
  /** The value as the query takes it, operator first. */
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type FilterScalar = string | number | boolean;
export type FilterValue = FilterScalar | null | FilterExpression;
/** Each attribute is compared with its value; a list of values must all match (one term each). */
export type Filter<Field extends string> = { readonly [K in Field]?: FilterValue | readonly FilterValue[] };

const operand = (value: FilterScalar | null): string => (value === null ? 'null' : String(value));
const expression = (operator: string) => (value: FilterScalar | null) => new FilterExpression(operator + operand(value));
const list = (operator: string) => (values: readonly FilterScalar[]) => new FilterExpression(operator + values.map(operand).join('|'));

/** Equal; `eq(null)` matches a null attribute. */
export const eq = (value: FilterScalar | null): FilterExpression => {
  const text = operand(value);
  // A value that starts like an operator is sent after an explicit `=`, so it stays a value.
  return new FilterExpression(/^[=!<>~]/.test(text) ? `=${text}` : text);
};
/** Not equal; `ne(null)` matches an attribute that is set. */
export const ne = expression('!=');
export const gt: (value: number | string) => FilterExpression = expression('>');
export const gte: (value: number | string) => FilterExpression = expression('>=');
export const lt: (value: number | string) => FilterExpression = expression('<');
export const lte: (value: number | string) => FilterExpression = expression('<=');
/** One of the values (`><1|2`); a value cannot hold `|`. */
export const inList = list('><');
export const notInList = list('!><');
/**
 * A `~` pattern cannot start with `*`: the server would read `~*` as the case-insensitive
 * operator, and match another pattern, silently.
 */
const casePattern = (operator: string) => (pattern: string) => {
  if (pattern.startsWith('*')) {
    throw new RangeError(
      `a ${operator} pattern cannot start with '*' (the API reads ${operator}* as the case-insensitive operator): match it with _ or use iLike`,
    );
  }
  return new FilterExpression(operator + pattern);
};
/** A pattern: `%` any text, `_` one character (text attributes only); case and every character as written. */
export const like: (pattern: string) => FilterExpression = casePattern('~');
export const notLike: (pattern: string) => FilterExpression = casePattern('!~');
/** A pattern ignoring the case of ASCII letters (`~*`): `iLike('proj%')` finds `Proj-000`; `É` and `é` still differ. */
export const iLike: (pattern: string) => FilterExpression = expression('~*');
export const notILike: (pattern: string) => FilterExpression = expression('!~*');
/** `isNull()` is `=null`, `isNull(false)` is `!=null`. */
export const isNull = (yes = true): FilterExpression => new FilterExpression(yes ? 'null' : '!=null');

/** The filter as query parameters: one value per term, in the order given. */
export function filterQuery(filter: Filter<string> | undefined): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  for (const [field, value] of Object.entries(filter ?? {})) {
    if (value === undefined) continue;
    const values: readonly FilterValue[] = Array.isArray(value) ? value : [value as FilterValue];
    query[field] = values.map((item) => (item instanceof FilterExpression ? item.text : eq(item).text));
  }
  return query;
}
