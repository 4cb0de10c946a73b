import { describe, expect, it } from 'vitest';
import { createGovernorEventSink, toSenderLabel } from './governor-events.js';

describe('createGovernorEventSink', () => {
  it('counts every event and logs each pace change once', () => {
    const lines: unknown[][] = [];
    const counted: string[] = [];
    const sink = createGovernorEventSink({
      logger: {
        warn: (...args: unknown[]) => void lines.push(['warn', ...args]),
        info: (...args: unknown[]) => void lines.push(['info', ...args]),
      } as never,
      metrics: { recordGovernorEvent: (event, sender) => void counted.push(`${event}:${sender}`) },
    });
    sink({ kind: 'queued', key: 'pat-1' });
    sink({ kind: 'refused', key: 'token:abc', cause: 'waited' });
    sink({ kind: 'slowed', key: 'pat-1', factor: 0.5 });
    sink({ kind: 'restored', key: 'pat-1' });
    expect(counted).toEqual([
      'queued:pat-1',
      'refused:unregistered',
      'slowed:pat-1',
      'restored:pat-1',
    ]);
    expect(lines).toEqual([
      ['warn', { sender: 'pat-1', factor: 0.5 }, 'governor_pace_slowed'],
      ['info', { sender: 'pat-1' }, 'governor_pace_restored'],
    ]);
  });

  it('never labels a credential digest', () => {
    expect(toSenderLabel('token:0123456789abcdef')).toBe('unregistered');
    expect(toSenderLabel('anonymous:api')).toBe('anonymous:api');
  });
});
