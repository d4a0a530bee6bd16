// The addresses contract: a module (modules/geocodificacao) provides the address service; others (providers written
// in code, e.g. Registros) read the cache table telemetria.endereco in their own statement and hand the misses to the
// service, which resolves them in the background. Without a provider registered, no address (and no failure).

export interface AddressPoint { empresa: number; lat: number; lon: number }

export interface AddressService {
  /** The address known at once without a network call (the nearest municipality 'Cidade/UF'). */
  offline(lat: number, lon: number): string | undefined;
  /** A point without a cached address: resolved later (deduplicated, rate-limited), then cached. */
  enqueue(p: AddressPoint): void;
}

let service: AddressService | undefined;
export const provideAddresses = (s: AddressService | undefined): void => { service = s; };
export const addresses = (): AddressService | undefined => service;

/** The cache key (lat_key, lon_key) of a point in SQL: 3 decimals (~110 m), written the same way everywhere. */
export const addressKeySql = (lat: string, lon: string): string => `round(${lat} * 1000)::int, round(${lon} * 1000)::int`;
