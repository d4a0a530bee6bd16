// Hand-made polylines of real streets around São Paulo (lat, lon), approximate.
export interface Street { name: string; limitKmh: number; points: [number, number][] }

export const STREETS: Street[] = [
  { name: 'Avenida Paulista', limitKmh: 50, points: [[-23.5556, -46.6623], [-23.5586, -46.6590], [-23.5614, -46.6559], [-23.5645, -46.6523], [-23.5680, -46.6478], [-23.5712, -46.6445]] },
  { name: 'Avenida Brigadeiro Faria Lima', limitKmh: 50, points: [[-23.5668, -46.6935], [-23.5720, -46.6905], [-23.5775, -46.6872], [-23.5830, -46.6842], [-23.5868, -46.6819], [-23.5920, -46.6806]] },
  { name: 'Avenida Rebouças', limitKmh: 50, points: [[-23.5565, -46.6694], [-23.5602, -46.6752], [-23.5642, -46.6817], [-23.5674, -46.6872], [-23.5703, -46.6930]] },
  { name: 'Avenida 23 de Maio', limitKmh: 70, points: [[-23.5532, -46.6368], [-23.5610, -46.6405], [-23.5705, -46.6448], [-23.5788, -46.6490], [-23.5865, -46.6530], [-23.5932, -46.6555]] },
  { name: 'Marginal Pinheiros', limitKmh: 90, points: [[-23.5490, -46.7165], [-23.5605, -46.7075], [-23.5735, -46.7010], [-23.5860, -46.6975], [-23.5985, -46.6945], [-23.6110, -46.6960]] },
  { name: 'Rua da Consolação', limitKmh: 50, points: [[-23.5437, -46.6437], [-23.5475, -46.6490], [-23.5508, -46.6548], [-23.5535, -46.6597], [-23.5556, -46.6623]] },
  { name: 'Avenida Sumaré', limitKmh: 50, points: [[-23.5318, -46.6786], [-23.5375, -46.6760], [-23.5430, -46.6733], [-23.5490, -46.6730], [-23.5540, -46.6728]] },
  { name: 'Avenida Ibirapuera', limitKmh: 60, points: [[-23.5880, -46.6580], [-23.5950, -46.6608], [-23.6025, -46.6640], [-23.6100, -46.6665], [-23.6172, -46.6680]] },
];

const R = 6_371_000;
const rad = (d: number) => (d * Math.PI) / 180;

export function distanceM(a: [number, number], b: [number, number]): number {
  const dLat = rad(b[0] - a[0]), dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

export function bearing(a: [number, number], b: [number, number]): number {
  const y = Math.sin(rad(b[1] - a[1])) * Math.cos(rad(b[0]));
  const x = Math.cos(rad(a[0])) * Math.sin(rad(b[0])) - Math.sin(rad(a[0])) * Math.cos(rad(b[0])) * Math.cos(rad(b[1] - a[1]));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}
