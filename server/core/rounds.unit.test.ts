import { describe, expect, it } from 'vitest';
import { Rounds, bySerial } from './rounds.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('Rounds', () => {
  it('runs one round at a time, in arrival order; what arrives meanwhile is the next round', async () => {
    const seen: number[][] = [];
    let active = 0, most = 0;
    const q = new Rounds<number>(async (w) => { active++; most = Math.max(most, active); seen.push(w); await tick(); active--; }, () => undefined);
    q.push([1, 2]);
    q.push([3]);
    q.push([4, 5]);
    await q.drain();
    expect(seen).toEqual([[1, 2], [3, 4, 5]]);
    expect(most).toBe(1);
  });

  it('a failing round is reported and the queue goes on; stop drains, then refuses', async () => {
    const errors: string[] = [];
    const seen: number[] = [];
    const q = new Rounds<number>(async (w) => { await tick(); if (w.includes(0)) throw new Error('falhou'); seen.push(...w); }, (e) => errors.push(e.message));
    q.push([0]);
    q.push([7]);
    await q.stop();
    q.push([8]);
    await q.drain();
    expect(errors).toEqual(['falhou']);
    expect(seen).toEqual([7]);
  });

  it('queues only what keep accepts', async () => {
    const seen: number[] = [];
    const q = new Rounds<number>(async (w) => { seen.push(...w); }, () => undefined);
    q.push([1, 2, 3, 4], (n) => n % 2 === 0);
    await q.drain();
    expect(seen).toEqual([2, 4]);
  });

  it('drain answers at once when idle', async () => {
    const q = new Rounds<number>(async () => undefined, () => undefined);
    let done = false;
    void q.drain().then(() => { done = true; });
    await Promise.resolve();
    expect(done).toBe(true);
  });
});

describe('bySerial', () => {
  it('groups in arrival order', () => {
    const m = bySerial([{ serial: 'b', t: 1 }, { serial: 'a', t: 2 }, { serial: 'b', t: 3 }]);
    expect([...m.keys()]).toEqual(['b', 'a']);
    expect(m.get('b')!.map((x) => x.t)).toEqual([1, 3]);
  });
});
