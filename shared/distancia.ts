// Distance of one step between consecutive fixes: the odometer's difference when both fixes report a plausible one,
// else the great-circle distance; a step faster than MAX_STEP_KMH is a jump (the odometer's difference if drivable). The rule of the trip detector (modules/viagens/server/detector.ts stepDistance),
// here once for code and SQL so that daily totals (modules/totais) count the same metres as the trips.

export const EARTH_RADIUS_M = 6_371_008.8;
/** The road is never shorter than the straight line (GPS noise aside) nor far longer: a reset, a stuck odometer, a
 *  swap of device or a jump is not distance travelled. */
export const ODOMETER_RULE = { slackM: 200, maxFactor: 3, maxExtraM: 2000 } as const;

const rad = Math.PI / 180;
/** Great-circle distance in metres. */
export function haversine(aLat: number, aLon: number, bLat: number, bLon: number): number {
  const dLat = (bLat - aLat) * rad, dLon = (bLon - aLon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * rad) * Math.cos(bLat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Faster than this between two fixes is a jump (of the GPS, or of the device's position after a restart), not a road:
 *  the step counts the odometer's difference if that much could be driven in the time, else nothing. */
export const MAX_STEP_KMH = 300;

export interface StepFix { /** ms */ t: number; lat: number; lon: number; /** km */ odometer: number | null }

/** Metres from a to b. */
export function stepDistance(a: StepFix, b: StepFix): number {
  const gps = haversine(a.lat, a.lon, b.lat, b.lon);
  const odo = a.odometer != null && b.odometer != null && a.odometer > 0 && b.odometer > 0 ? (b.odometer - a.odometer) * 1000 : null;
  const reach = (MAX_STEP_KMH / 3.6) * Math.max(0, (b.t - a.t) / 1000) + ODOMETER_RULE.slackM;
  if (gps > reach) return odo !== null && odo >= 0 && odo <= reach ? odo : 0;
  if (odo !== null && odo >= gps - ODOMETER_RULE.slackM && odo <= ODOMETER_RULE.maxFactor * gps + ODOMETER_RULE.maxExtraM) return odo;
  return gps;
}

/** SQL text of the great-circle distance (metres) between two points given as SQL expressions. */
export function haversineSql(aLat: string, aLon: string, bLat: string, bLon: string): string {
  return `(2 * ${EARTH_RADIUS_M} * asin(least(1, sqrt(power(sin(radians(${bLat} - ${aLat}) / 2), 2)
    + cos(radians(${aLat})) * cos(radians(${bLat})) * power(sin(radians(${bLon} - ${aLon}) / 2), 2)))))`;
}

/** SQL text of stepDistance(): `gps` is an SQL expression of the great-circle metres (computed once by the caller),
 *  aOdo/bOdo the odometers in km (NULL when not reported), dt the seconds between the fixes. */
export function stepDistanceSql(gps: string, aOdo: string, bOdo: string, dt: string): string {
  const odo = `((${bOdo} - ${aOdo}) * 1000)`;
  const reach = `(${MAX_STEP_KMH / 3.6} * greatest(0, ${dt}) + ${ODOMETER_RULE.slackM})`;
  return `CASE WHEN ${gps} > ${reach} THEN CASE WHEN ${aOdo} > 0 AND ${bOdo} > 0 AND ${odo} >= 0 AND ${odo} <= ${reach} THEN ${odo} ELSE 0 END
    WHEN ${aOdo} > 0 AND ${bOdo} > 0 AND ${odo} >= ${gps} - ${ODOMETER_RULE.slackM}
    AND ${odo} <= ${ODOMETER_RULE.maxFactor} * ${gps} + ${ODOMETER_RULE.maxExtraM} THEN ${odo} ELSE ${gps} END`;
}
