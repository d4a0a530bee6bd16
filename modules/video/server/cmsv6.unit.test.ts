// The CMSV6 adapter against the local double: login, one session reused, re-login on code 5, every error code's pt-BR
// message and status, login failures, timeouts, an unreachable server, status/channels/alarms, and the samples.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cmsv6Client, Cmsv6Error, ERROS, horaCmsv6, deHoraCmsv6 } from './cmsv6.ts';
import { startCmsv6Double, type Cmsv6Double } from './cmsv6-double.ts';
import { flv, segmentoTs } from './midia.ts';

let d: Cmsv6Double;
const cliente = (o: Partial<{ password: string; timeoutMs: number; url: string }> = {}) =>
  new Cmsv6Client({ url: o.url ?? d.url, account: d.account, password: o.password ?? d.password, streamUrl: d.url, timeoutMs: o.timeoutMs ?? 3000 });

beforeAll(async () => {
  d = await startCmsv6Double({ dispositivos: [{ idno: 'CAM001', placa: 'ABC1D23', canais: 4, online: true }, { idno: 'CAM002', placa: 'XYZ9K88', canais: 2, online: false }] });
});
afterAll(async () => { await d?.stop(); });

describe('CMSV6 adapter', () => {
  it('logs in once and reuses the session; status and channels', async () => {
    const c = cliente();
    const on = await c.online(['CAM001', 'CAM002']);
    expect([...on]).toEqual([['CAM001', true], ['CAM002', false]]);
    const ch = await c.canais();
    expect(ch.get('CAM001')!.nomes).toEqual(['CH1', 'CH2', 'CH3', 'CH4']);
    expect(ch.get('CAM002')!.nomes).toHaveLength(2);
    expect(c.logins).toBe(1);
    const js = d.chamadas.filter((x) => x.nome !== 'login').map((x) => x.jsession);
    expect(new Set(js).size).toBe(1);
  });

  it('logs in again when the server answers 5 (session does not exist), once', async () => {
    const c = cliente();
    await c.online(['CAM001']);
    d.expira();
    expect([...(await c.online(['CAM001']))]).toEqual([['CAM001', true]]);
    expect(c.logins).toBe(2);
    // a server that keeps saying 5 after a fresh login: the error, not a loop
    d.falha('getDeviceOlStatus', 5, 2);
    const e = await c.online(['CAM001']).catch((x) => x);
    expect(e).toBeInstanceOf(Cmsv6Error);
    expect([e.code, e.status, e.message]).toEqual([5, 502, 'Servidor de vídeo: a sessão não existe (entre novamente)']);
  });

  it('maps every error code to a pt-BR message and an HTTP status', async () => {
    const c = cliente();
    const codes = [1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 18, 19, 20, 24, 32];
    for (const code of codes) {
      d.falha('realTimeVedio', code, 1);
      const e = await c.pedeClipe('CAM001', 0, 10).catch((x) => x);
      expect([e.code, e.message, e.status]).toEqual([code, ERROS[code]!.msg, ERROS[code]!.status]);
    }
    expect(Object.keys(ERROS).map(Number)).toEqual([1, 2, 3, 4, 5, ...codes.slice(4)]);
    expect(ERROS[32]).toEqual({ msg: 'O equipamento está offline', status: 409 });
    expect(ERROS[19]!.status).toBe(404);
    d.falha('realTimeVedio', 99, 1);
    expect((await c.pedeClipe('CAM001', 0, 10).catch((x) => x)).message).toBe('Servidor de vídeo: erro desconhecido (código 99)');
  });

  it('login failures: wrong password, user missing, disabled, expired', async () => {
    expect((await cliente({ password: 'errada' }).online(['CAM001']).catch((x) => x)).message).toBe('Servidor de vídeo: senha do usuário de integração incorreta');
    for (const code of [1, 3, 4]) {
      d.loginFalha = code;
      const e = await cliente().online(['CAM001']).catch((x) => x);
      expect([e.code, e.message]).toEqual([code, ERROS[code]!.msg]);
    }
    d.loginFalha = null;
  });

  it('a server that does not answer in time is 504; one that cannot be reached 502', async () => {
    d.atraso.getDeviceOlStatus = 800;
    const e = await cliente({ timeoutMs: 200 }).online(['CAM001']).catch((x) => x);
    expect([e.status, e.message]).toEqual([504, 'O servidor de vídeo não respondeu a tempo']);
    delete d.atraso.getDeviceOlStatus;
    const f = await cliente({ url: 'http://127.0.0.1:9' }).online(['CAM001']).catch((x) => x);
    expect([f.status, f.message]).toEqual([502, 'Não foi possível conectar ao servidor de vídeo']);
  });

  it('alarms of a period, every page, with the server\'s local time', async () => {
    const at = new Date('2026-03-01T12:00:00Z');
    for (let i = 0; i < 450; i++) d.alarmes.push({ did: 'CAM001', atp: 618, stm: horaCmsv6(new Date(at.getTime() + i * 1000)) });
    const got = await cliente().alarmes(['CAM001'], at, new Date(at.getTime() + 3600_000), [618]);
    expect(got).toHaveLength(450);
    expect(got[0]).toMatchObject({ did: 'CAM001', atp: 618, stm: '2026-03-01 09:00:00' });
    expect(deHoraCmsv6(got[0]!.stm!)!.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    d.alarmes.length = 0;
  });

  it('stream addresses carry the session (server side only)', async () => {
    const c = cliente();
    const flvUrl = await c.urlDoStream('CAM001', 1, 1, 'flv');
    expect(flvUrl).toMatch(new RegExp(`^${d.url}/3/3\\?AVType=1&jsession=js\\w+&DevIDNO=CAM001&Channel=1&Stream=1$`));
    expect(await c.urlDoStream('CAM001', 0, 0, 'hls')).toMatch(new RegExp(`^${d.url}/hls/1_CAM001_0_0\\.m3u8\\?jsession=js\\w+$`));
  });

  it('samples: an FLV of frames and MPEG-TS segments of 188-byte packets', () => {
    const f = flv(3);
    expect([...f.subarray(0, 3)]).toEqual([0x46, 0x4c, 0x56]);
    const ts = segmentoTs(0, 2);
    expect(ts.length % 188).toBe(0);
    for (let i = 0; i < ts.length; i += 188) expect(ts[i]).toBe(0x47);
  });
});
