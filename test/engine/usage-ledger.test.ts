/** The one usage ledger: the server's `copies` file and the hosted client's `labels` file, counted alike. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { countUsage, emptyUsage, usageLedgerSchema, usageTotal } from '../../src/engine/usage-ledger';

describe('usage ledger', () => {
  it('reads both files as they are on disk, each with its own field name', () => {
    const server = usageLedgerSchema('copies', z.string());
    const client = usageLedgerSchema('labels', z.enum(['render-zpl', 'print']));
    const serverFile = { version: 1, keys: { ldk_a: { 'render-zpl': { requests: 2, copies: 5 } } } };
    const clientFile = { version: 1, keys: { k: { print: { requests: 1, labels: 3 } } } };
    expect(server.parse(serverFile)).toEqual(serverFile);
    expect(client.parse(clientFile)).toEqual(clientFile);
    expect(server.safeParse(clientFile).success).toBe(false);
    expect(client.safeParse(serverFile).success).toBe(false);
    expect(client.safeParse({ version: 1, keys: { k: { other: { requests: 1, labels: 1 } } } }).success).toBe(
      false,
    );
  });

  it('counts requests and labels per key and route, and totals a key over its routes', () => {
    const data = emptyUsage<'copies', string>();
    countUsage(data, 'copies', 'a', 'render-zpl', 2);
    countUsage(data, 'copies', 'a', 'render-zpl', 3);
    countUsage(data, 'copies', 'a', 'render-pdf', 1);
    countUsage(data, 'copies', 'b', 'render-pdf', 7);
    expect(JSON.stringify(data.keys.a)).toBe(
      '{"render-zpl":{"requests":2,"copies":5},"render-pdf":{"requests":1,"copies":1}}',
    );
    expect(usageTotal(data, 'copies', 'a')).toEqual({ requests: 3, copies: 6 });
    expect(usageTotal(data, 'copies', 'nobody')).toEqual({ requests: 0, copies: 0 });
  });
});
