// Reverse geocoding: addresses of points (Nominatim-compatible GEOCODER_URL, else the nearest municipality), cached in
// telemetria.endereco by a background resolver woken by the latest-state bus; lists read the cache in SQL, the map popups ask the named call.
import { defineModule } from '../../server/core/module.ts';
import { provideAddresses } from '../../server/core/addresses.ts';
import { createGeocoder, geocoderOptionsFromEnv } from './server/adapter.ts';
import { municipioLabel } from './server/municipios.ts';
import { Resolver } from './server/resolver.ts';
import { geocodingRoutes } from './server/routes.ts';

let resolver: Resolver | undefined;

export default defineModule({
  name: 'geocodificacao',
  routes: geocodingRoutes(() => resolver),
  start({ exec, log, onEstado }) {
    resolver = new Resolver(exec, createGeocoder(geocoderOptionsFromEnv()), log);
    const r = resolver;
    provideAddresses({ offline: municipioLabel, enqueue: (p) => r.enqueue(p) });
    // Woken by the latest-state bus and by the points asked for; at most one pass per GEOCODER_INTERVAL_MS.
    const job = r.start(onEstado, Number(process.env.GEOCODER_INTERVAL_MS ?? 1000));
    return { stop: async () => { provideAddresses(undefined); await job.stop(); resolver = undefined; } };
  },
});
