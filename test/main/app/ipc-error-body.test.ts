/**
 * Every hosted-API error kind reaches the renderer as a decided code (issue #20: a `default:` turned
 * render-failed and cancelled into "internal", which reads as LabelDesk's own bug); unknown errors stay
 * internal without a stack.
 */
import { describe, expect, it } from 'vitest';
import {
  AuthError,
  CancelledError,
  RenderFailedError,
  UnexpectedStatusError,
  UnreachableError,
} from '../../../src/backends/errors';
import { toIpcErrorBody } from '../../../main/app/ipc-error-body';

describe('toIpcErrorBody', () => {
  it.each([
    [new RenderFailedError(), 'unreachable'],
    [new UnexpectedStatusError(502), 'unreachable'],
    [new CancelledError(), 'conflict'],
    [new AuthError(), 'auth'],
    [new UnreachableError('network', 'ECONNREFUSED'), 'unreachable'],
  ])('%s → %s', (error, code) => {
    const body = toIpcErrorBody(error);
    expect(body.code).toBe(code);
    expect(body.message).not.toMatch(/inside LabelDesk/);
  });

  it('anything else is internal, one sentence, no stack', () => {
    const body = toIpcErrorBody(new TypeError('x is undefined'));
    expect(body).toMatchObject({ code: 'internal', field: null, action: null });
    expect(body.message).toBe('Something went wrong inside LabelDesk: x is undefined');
  });
});
