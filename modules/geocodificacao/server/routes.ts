// GET /api/geocodificacao/endereco?lat=&lon= (envelope): the address of a point for the active company — its cache,
// else the resolver (provider rate-limited, at most RESOLVE_WAIT_MS; then the municipality, resolved later).
import type { Hono } from 'hono';
import type { AppEnv } from '../../../server/app/env.ts';
import { route } from '../../../server/core/pipeline.ts';
import { badRequest, ok } from '../../../server/http/envelope.ts';
import { offlineAddress, type Endereco } from './adapter.ts';
import type { Resolver } from './resolver.ts';

const RESOLVE_WAIT_MS = 3000;

export function geocodingRoutes(resolver: () => Resolver | undefined) {
  return (api: Hono<AppEnv>) => {
    route(api, 'get', '/geocodificacao/endereco', {
      permission: ['tlm.ras.rastreamento_ao_vivo', 'tlm.ras.registros', 'tlm.fro.ativo.lista', 'tlm.ras.mapa_do_ativo'],
      scope: 'empresa',
    }, async (c) => {
      const lat = Number(c.req.query('lat')), lon = Number(c.req.query('lon'));
      if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) throw badRequest('Coordenadas inválidas');
      const r = resolver();
      const p = { empresa: c.get('session').empresaAtiva, lat, lon };
      let e: Endereco = offlineAddress(lat, lon);
      if (r) {
        let timer: NodeJS.Timeout | undefined;
        const fallback = new Promise<Endereco>((res) => { timer = setTimeout(() => { r.enqueue(p); res(offlineAddress(lat, lon)); }, RESOLVE_WAIT_MS); });
        e = await Promise.race([r.resolve(p).catch(() => offlineAddress(lat, lon)), fallback]);
        clearTimeout(timer);
      }
      return ok(c, e);
    });
  };
}
