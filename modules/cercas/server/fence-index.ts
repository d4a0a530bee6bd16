// One company's active fences in an R-tree (flatbush, packed Hilbert R-tree over the fences' bounding boxes): a
// segment between two fixes asks only the fences whose box meets the segment's box.
import Flatbush from 'flatbush';
import { contains, prepare, type FenceInput, type Prepared } from '../geo.ts';

export class FenceIndex {
  readonly fences: Prepared[];
  readonly byId: Map<number, Prepared>;
  private readonly tree: Flatbush | null;

  constructor(inputs: FenceInput[]) {
    this.fences = inputs.map(prepare).filter((f): f is Prepared => f !== null);
    this.byId = new Map(this.fences.map((f) => [f.id, f]));
    if (!this.fences.length) { this.tree = null; return; }
    const t = new Flatbush(this.fences.length);
    for (const f of this.fences) t.add(f.bbox[0], f.bbox[1], f.bbox[2], f.bbox[3]);
    t.finish();
    this.tree = t;
  }

  get size(): number { return this.fences.length; }

  /** Fences whose box meets the box of A→B (candidates: the exact test is geo.ts). */
  candidates(lonA: number, latA: number, lonB: number, latB: number): Prepared[] {
    if (!this.tree) return [];
    return this.tree.search(Math.min(lonA, lonB), Math.min(latA, latB), Math.max(lonA, lonB), Math.max(latA, latB)).map((i) => this.fences[i]!);
  }

  /** Fences holding the point. */
  at(lon: number, lat: number): Prepared[] {
    return this.candidates(lon, lat, lon, lat).filter((f) => contains(f, lon, lat));
  }
}
