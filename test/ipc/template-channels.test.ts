/** The designer's channels of the IPC contract (issue #22): declared once, payloads parsed strictly. */
import { describe, expect, it } from 'vitest';
import { CHANNELS } from '../../src/ipc/contract';
import { parseRequest } from '../../src/ipc/errors';

describe('the designer channels', () => {
  it('are declared, and refuse payloads that are not theirs with bad-request at the field', () => {
    for (const c of [
      'templates.save',
      'templates.revisions',
      'templates.restoreRevision',
      'templates.duplicate',
      'templates.export',
    ])
      expect(Object.hasOwn(CHANNELS, c), c).toBe(true);
    const bad: [Parameters<typeof parseRequest>[0], unknown, string][] = [
      ['templates.save', { template: [], overwrite: false }, 'template'],
      ['templates.save', { template: {}, overwrite: 'yes' }, 'overwrite'],
      ['templates.save', { template: {}, overwrite: false, extra: 1 }, ''],
      ['templates.restoreRevision', { name: 'x', revision: '../../etc/passwd' }, 'revision'],
      ['templates.duplicate', { ref: { source: 'disk', name: 'x' }, name: 'y' }, 'ref.source'],
      ['templates.revisions', { name: '' }, 'name'],
    ];
    for (const [channel, payload, field] of bad) {
      expect(() => parseRequest(channel, payload), channel).toThrow(
        expect.objectContaining({
          code: 'bad-request',
          field: field || null,
          logLine: expect.stringMatching(new RegExp(`^${channel}: ${field.replace('.', '\\.')}`)),
        }),
      );
    }
    expect(
      parseRequest('templates.restoreRevision', { name: 'x', revision: '20261124T235630123Z-2' }),
    ).toBeTruthy();
  });
});
