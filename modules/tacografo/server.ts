// Tachograph (issue 23): frames of the video-telemetry units' tachograph transfers reassembled into files (uploads
// storage), listed per asset and driver, downloaded; transfer commands through the command queue; every step logged.
// Codec: protocol/tacografo. Routes: server/tacografo.ts. README.md: the byte layout and its source.
import { defineModule } from '../../server/core/module.ts';
import { BODY_LIMIT, routes, startTimeouts, transferCommand } from './server/tacografo.ts';

export default defineModule({
  name: 'tacografo',
  routes,
  start: startTimeouts,
  actions: { tacografo_comando: transferCommand },
  bodyLimits: [{
    match: (c) => c.req.method === 'POST' && c.req.path === '/api/tacografo/quadros',
    maxSize: BODY_LIMIT,
    message: `O corpo da requisição excede o limite de ${BODY_LIMIT / 1024 / 1024} MB`,
  }],
});
