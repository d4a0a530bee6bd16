// Video (issue 23): the CMSV6 (808gps) web API through an adapter (server/cmsv6.ts: one session per configured
// server, re-login on code 5, pt-BR errors), the live player grid /tlm/vid/video_ao_vivo, recordings and clip
// requests /tlm/vid/download with their history /tlm/vid/historico_video (register solicitacao_video), the stream proxy
// that keeps the CMSV6 session on the server (server/rotas.ts), and the camera alarms read from CMSV6 as events
// (server/alarmes.ts, a background worker), the cameras' online state pushed over socket.io (server/situacao.ts), clips asked of a device followed until they are on the CMSV6 server (server/clipes.ts, pushed). README.md: configuration and how to point Rastro at a real server.
import { defineModule } from '../../server/core/module.ts';
import { videoRoutes } from './server/rotas.ts';
import { startAlarmes } from './server/alarmes.ts';
import { startSituacao } from './server/situacao.ts';
import { startClipes } from './server/clipes.ts';

export default defineModule({
  name: 'video',
  routes: videoRoutes,
  // camera alarms → events; cameras' online state and clip requests' state pushed to the screens
  start: (m) => {
    const ws = [startAlarmes(m), startSituacao(m), startClipes(m)];
    return { stop: async () => { await Promise.all(ws.map((w) => w.stop())); } };
  },
});
