import { ROOT_CONTEXT, createContextKey, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { LinkedContext } from './linked-context.js';

describe('a linked context', () => {
  const span = createContextKey('span');
  const user = createContextKey('user');

  it('answers its own values, then its parent’s, and leaves the parent as it was', () => {
    const parent = ROOT_CONTEXT.setValue(user, 'alice');
    const child = LinkedContext.over(parent).setValue(span, 'request');
    expect(child.getValue(span)).toBe('request');
    expect(child.getValue(user)).toBe('alice');
    expect(parent.getValue(span)).toBeUndefined();
    const overridden = child.setValue(user, 'bob');
    expect(overridden.getValue(user)).toBe('bob');
    expect(child.getValue(user)).toBe('alice');
  });

  it('forgets a deleted value, its parent’s too, in what it answers only', () => {
    const child = LinkedContext.over(ROOT_CONTEXT.setValue(user, 'alice')).setValue(span, 'request');
    const deleted = child.deleteValue(user).deleteValue(span);
    expect(deleted.getValue(user)).toBeUndefined();
    expect(deleted.getValue(span)).toBeUndefined();
    expect(child.getValue(user)).toBe('alice');
  });

  it('holds a span as the API’s context does', () => {
    const requestSpan = trace.wrapSpanContext({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 1 });
    const active = trace.setSpan(LinkedContext.over(ROOT_CONTEXT), requestSpan);
    expect(trace.getSpan(active)).toBe(requestSpan);
    expect(trace.getSpan(trace.deleteSpan(active))).toBeUndefined();
  });
});
