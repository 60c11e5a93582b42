// The nearest-profile index of one edition: the rows that hold every common profile attribute,
// placed in a k-d tree over their coordinates on the profile's principal axes, one tree per era,
// plus the few rows that lack a common attribute (checked one by one). Built offline by build-index
// and stored in the snapshot (`profileIndex`; a file without one builds it per thread on first
// use); a search answers exactly what a scan of every row would (the tree only
// skips rows whose distance is provably larger than the current `limit`-th), and never throws.
//
// Why the skip is exact. A profile distance is d² = Σ_S zᵢ² / |S| over the columns S both rows
// have, zᵢ the difference divided by column i's spread. For a row with every common column F, S
// holds C ∩ F (C: the target's columns), so |S|·d² ≥ Σ_{C∩F} zᵢ² and |S| ≤ |C|. With the
// target's missing common columns filled in at their columns' mid-range, Σ_{C∩F} zᵢ² ≥ Σ_F zᵢ² −
// M, M the largest the filled-in columns can add; and Σ_F zᵢ² ≥ the squared distance of the two
// rows' projections on any orthonormal axes (a projection never lengthens a vector), which is ≥
// the squared distance from the target's projection to the bounding box of a tree node holding
// the row. So a node whose (box distance² − M) / |C| exceeds the current `limit`-th distance²
// (with a margin for rounding) holds no row that could enter the answer.

import type { SnapshotColumns } from "./edition-tables.js";
import { ABSENT_RATING } from "../model/attributes.js";

/** Principal axes the tree splits on. At 100,000 players, 4–16 axes × leaves of 16–64 rows took about the same time (bench/README.md); 8 × 32 kept. */
const AXES = 8;
/** Rows per leaf at most (a split leaves halves of at least LEAF_ROWS / 2). */
const LEAF_ROWS = 32;
/** A column is common when at least this share of the rows with a profile hold it. */
const COMMON_SHARE = 0.9;
/** Rows the principal axes are estimated from (evenly spaced over the edition). */
const AXIS_SAMPLE_ROWS = 20_000;
/** Relative slack on the pruning bound: covers the float32 sums of the exact distance (≤ ~2⁻²⁴ per column). */
const BOUND_SLACK = 1e-4;

/** What build-index stores in the snapshot (`profileIndex`): every array, no scratch. */
/** What the index reads of an edition (an Edition is one): its rows, their era ranges and two columns. */
export interface ProfileRows {
  readonly rowCount: number;
  /** Rows of each era are contiguous, by ERA_CODE: [eraStart[code], eraStart[code + 1]). */
  readonly eraStart: Uint32Array;
  readonly payload: { readonly columns: Pick<SnapshotColumns, "attributes" | "positions"> };
}

export interface StoredProfileIndex {
  /** The common columns F (profile columns with spread, held by ≥ COMMON_SHARE of the profiled rows), column order. */
  readonly columns: Int32Array;
  readonly dims: number;
  /** weights[k * columns.length + i]: axis k's weight on raw values of columns[i] (already divided by its spread). */
  readonly weights: Float64Array;
  /** Per common column: the smallest and largest value a row holds (the target's missing ones are filled in between). */
  readonly low: Uint8Array;
  readonly high: Uint8Array;
  /** Per common column: 1 / spread. */
  readonly inverseSpread: Float64Array;
  /** How far a stored (float32) coordinate may be from the exact one. */
  readonly coordinateSlack: number;
  /** The rows with every common column, each era's in leaf order; nodes hold ranges of it. */
  readonly rows: Uint32Array;
  /** Per era code: its tree's root node, -1 when the era has no such row. */
  readonly rootOfEra: Int32Array;
  readonly nodeStart: Uint32Array;
  readonly nodeEnd: Uint32Array;
  /** Children of a node; -1 for a leaf. */
  readonly nodeLeft: Int32Array;
  readonly nodeRight: Int32Array;
  /** node * dims + k: the node's bounding box on axis k. */
  readonly boxLow: Float32Array;
  readonly boxHigh: Float32Array;
  /** Rows with a profile attribute but not every common column, by era: [partialStart[code], partialStart[code + 1]). */
  readonly partialRows: Uint32Array;
  readonly partialStart: Uint32Array;
  /** node: the OR of its rows' position bits (a position filter skips nodes without them). */
  readonly nodePositions: Uint8Array;
}

/** The index one thread searches: the stored arrays and its own scratch. */
export interface ProfileIndex extends StoredProfileIndex {
  /** Search scratch: the target's coordinates, a heap of nodes by bound (room for every node). */
  readonly point: Float64Array;
  readonly heapNode: Int32Array;
  readonly heapBound: Float64Array;
  /** What the last search did: rows it looked at (partial rows included; a position filter may drop one before its distance) and tree nodes it opened. */
  readonly work: { rows: number; nodes: number };
}

/** What the search needs to know of the target and to check a row exactly. */
export interface ProfileTarget {
  row: number;
  /** The target's columns C (profile columns it holds with spread), column order. */
  columns: Int32Array;
  /**
   * Per target column k: where its row of the edition's squared standardised gaps sits, shifted by
   * the target's value, so `squaredGap[offsets[k] + value]` = ((value − target's value) / spread)²
   * as float32 (store/profile-tables.ts). Read directly: nothing is built per target.
   */
  offsets: Int32Array;
  squaredGap: Float32Array;
  eraMask: number;
  positionMask: number;
}

export interface ProfileCandidate { row: number; distance: number; shared: number }

/** Reports one row that may enter the answer (the caller keeps the best). */
export type ProfileVisitor = (row: number, distance: number, shared: number) => void;

export function buildProfileIndex(edition: ProfileRows, profileColumns: readonly number[], stddev: Float64Array, keyCount: number): ProfileIndex {
  const { attributes } = edition.payload.columns;
  const rowCount = edition.rowCount;
  const spreadColumns = profileColumns.filter((column) => (stddev[column] as number) > 0);

  // Which columns are common: held by ≥ COMMON_SHARE of the rows holding any profile column.
  const holders = new Uint32Array(spreadColumns.length);
  let profiled = 0;
  for (let row = 0; row < rowCount; row++) {
    const base = row * keyCount;
    let any = false;
    for (let i = 0; i < spreadColumns.length; i++) {
      if (attributes[base + (spreadColumns[i] as number)] === ABSENT_RATING) continue;
      holders[i] = (holders[i] as number) + 1;
      any = true;
    }
    if (any) profiled++;
  }
  const columns = Int32Array.from(spreadColumns.filter((_, i) => (holders[i] as number) >= COMMON_SHARE * profiled && (holders[i] as number) > 0));
  const f = columns.length;
  const inverseSpread = Float64Array.from(columns, (column) => 1 / (stddev[column] as number));
  const low = new Uint8Array(f).fill(255);
  const high = new Uint8Array(f);

  // Sort the rows: complete (every common column) by era, and partial (some profile column, not every common one) by era.
  const isComplete = new Uint8Array(rowCount);
  let completeCount = 0;
  let partialCount = 0;
  for (let row = 0; row < rowCount; row++) {
    const base = row * keyCount;
    let held = 0;
    for (let i = 0; i < f; i++) {
      const value = attributes[base + (columns[i] as number)] as number;
      if (value === ABSENT_RATING) continue;
      held++;
      if (value < (low[i] as number)) low[i] = value;
      if (value > (high[i] as number)) high[i] = value;
    }
    if (f > 0 && held === f) { isComplete[row] = 1; completeCount++; continue; }
    for (const column of spreadColumns) {
      if (attributes[base + column] !== ABSENT_RATING) { isComplete[row] = 2; partialCount++; break; }
    }
  }
  const eraCount = edition.eraStart.length - 1;
  const rows = new Uint32Array(completeCount);
  const partialRows = new Uint32Array(partialCount);
  const partialStart = new Uint32Array(eraCount + 1);
  const completeStart = new Uint32Array(eraCount + 1);
  let c = 0;
  let p = 0;
  for (let code = 0; code < eraCount; code++) {
    completeStart[code] = c;
    partialStart[code] = p;
    for (let row = edition.eraStart[code] as number; row < (edition.eraStart[code + 1] as number); row++) {
      if (isComplete[row] === 1) rows[c++] = row;
      else if (isComplete[row] === 2) partialRows[p++] = row;
    }
  }
  completeStart[eraCount] = c;
  partialStart[eraCount] = p;

  const dims = Math.min(AXES, f);
  const weights = principalWeights(attributes, keyCount, columns, inverseSpread, rows, dims);
  let coordinateBound = 0;
  for (let k = 0; k < dims; k++) {
    let sum = 0;
    for (let i = 0; i < f; i++) sum += Math.abs(weights[k * f + i] as number) * 255;
    coordinateBound = Math.max(coordinateBound, sum);
  }

  // Every complete row's coordinates, by position in `rows` (moved with it while the tree sorts them).
  const coordinates = new Float32Array(completeCount * dims);
  for (let i = 0; i < completeCount; i++) {
    const base = (rows[i] as number) * keyCount;
    for (let k = 0; k < dims; k++) {
      let sum = 0;
      for (let j = 0; j < f; j++) sum += (weights[k * f + j] as number) * (attributes[base + (columns[j] as number)] as number);
      coordinates[i * dims + k] = sum;
    }
  }

  const tree = new TreeBuilder(rows, coordinates, dims, edition.payload.columns.positions);
  const rootOfEra = new Int32Array(eraCount).fill(-1);
  for (let code = 0; code < eraCount; code++) {
    if ((completeStart[code + 1] as number) > (completeStart[code] as number)) rootOfEra[code] = tree.build(completeStart[code] as number, completeStart[code + 1] as number);
  }
  const nodes = tree.finish();
  return withScratch({
    columns, dims, weights, low, high, inverseSpread,
    // float32 rounding of a coordinate (≤ 2⁻²⁴ relative), doubled to cover the float64 sums.
    coordinateSlack: coordinateBound * 2 ** -23,
    rows, rootOfEra, ...nodes, partialRows, partialStart,
  });
}

/** A stored index with this thread's search scratch. */
export function withScratch(stored: StoredProfileIndex): ProfileIndex {
  const nodeCount = stored.nodeStart.length;
  return { ...stored, point: new Float64Array(stored.dims), heapNode: new Int32Array(nodeCount), heapBound: new Float64Array(nodeCount), work: { rows: 0, nodes: 0 } };
}

/** The arrays of an index, without its scratch: what a snapshot stores. */
export function storedPart(index: ProfileIndex): StoredProfileIndex {
  const { point: _point, heapNode: _heapNode, heapBound: _heapBound, work: _work, ...stored } = index;
  return stored;
}

/**
 * Every row in the target's scope (era, position, not the target) that may be among its `limit`
 * nearest, reported with its exact distance (as the scan computes it, float32 sums). `kthDistance`
 * returns the current `limit`-th best distance (Infinity while fewer are kept): rows and nodes
 * provably farther are skipped.
 */
export function searchProfileIndex(index: ProfileIndex, edition: ProfileRows, keyCount: number, target: ProfileTarget, kthDistance: () => number, visit: ProfileVisitor): void {
  const { attributes, positions } = edition.payload.columns;
  const { columns: targetColumns, offsets, squaredGap, positionMask } = target;
  const needed = Math.ceil(targetColumns.length / 2);
  const { work } = index;
  work.rows = 0;
  work.nodes = 0;
  // A row or node is skipped when its d² provably exceeds kthSquared (with the slack).
  let kthSquared = Infinity;
  let ceiling = Infinity;
  const tighten = (): void => {
    const kth = kthDistance();
    kthSquared = kth * kth * (1 + BOUND_SLACK);
    ceiling = kthSquared * targetColumns.length;
  };
  const check = (row: number): void => {
    work.rows++;
    if (row === target.row) return;
    if (positionMask !== 0 && ((positions[row] as number) & positionMask) === 0) return;
    const base = row * keyCount;
    // the scan's sums[row]: Σ over the target's columns the row holds of the squared gap, in
    // float32, in column order. Partial sums only grow and shared ≤ |C|, so once one passes
    // kthSquared · |C| the row cannot enter the answer.
    let sum = 0;
    let shared = 0;
    for (let k = 0; k < targetColumns.length; k++) {
      const value = attributes[base + (targetColumns[k] as number)] as number;
      if (value === ABSENT_RATING) continue;
      sum = Math.fround(sum + (squaredGap[(offsets[k] as number) + value] as number));
      if (sum > ceiling) return;
      shared++;
    }
    if (shared < needed) return;
    visit(row, Math.sqrt(sum / shared), shared);
    tighten();
  };

  for (let code = 0; code + 1 < index.partialStart.length; code++) {
    if (((target.eraMask >>> code) & 1) === 0) continue;
    for (let i = index.partialStart[code] as number; i < (index.partialStart[code + 1] as number); i++) check(index.partialRows[i] as number);
  }

  // The target's point: its common columns, the ones it lacks filled in at mid-range (each adding at most `missing` to Σ_F zᵢ²).
  const { columns, dims, weights, point, boxLow, boxHigh, coordinateSlack } = index;
  const f = columns.length;
  const targetBase = target.row * keyCount;
  let missing = 0;
  point.fill(0);
  for (let i = 0; i < f; i++) {
    let value = attributes[targetBase + (columns[i] as number)] as number;
    if (value === ABSENT_RATING) {
      value = ((index.low[i] as number) + (index.high[i] as number)) / 2;
      missing += (((index.high[i] as number) - (index.low[i] as number)) / 2 * (index.inverseSpread[i] as number)) ** 2;
    }
    for (let k = 0; k < dims; k++) point[k] = (point[k] as number) + (weights[k * f + i] as number) * value;
  }
  const scale = 1 / targetColumns.length;
  /** The smallest d² a row of the node can have, less the slack: (box distance² − missing) / |C|. */
  const nodeBound = (node: number): number => {
    let sum = 0;
    for (let k = 0; k < dims; k++) {
      const x = point[k] as number;
      const gap = Math.max((boxLow[node * dims + k] as number) - x, x - (boxHigh[node * dims + k] as number)) - coordinateSlack;
      if (gap > 0) sum += gap * gap;
    }
    return (sum - missing) * scale;
  };

  // Best first: always open the node with the smallest bound, so the `limit`-th distance falls as
  // fast as it can; stop when the smallest left is beyond it.
  const heap = new NodeHeap(index.heapNode, index.heapBound);
  const { nodeLeft, nodeRight, nodePositions } = index;
  const isInScope = (node: number) => positionMask === 0 || ((nodePositions[node] as number) & positionMask) !== 0;
  for (let code = 0; code < index.rootOfEra.length; code++) {
    const root = index.rootOfEra[code] as number;
    if (((target.eraMask >>> code) & 1) !== 0 && root >= 0 && isInScope(root)) heap.push(root, nodeBound(root));
  }
  while (heap.size > 0 && heap.smallestBound() <= kthSquared) {
    const node = heap.pop();
    work.nodes++;
    const left = nodeLeft[node] as number;
    if (left < 0) {
      for (let i = index.nodeStart[node] as number; i < (index.nodeEnd[node] as number); i++) check(index.rows[i] as number);
      continue;
    }
    const right = nodeRight[node] as number;
    if (isInScope(left)) {
      const bound = nodeBound(left);
      if (bound <= kthSquared) heap.push(left, bound);
    }
    if (isInScope(right)) {
      const bound = nodeBound(right);
      if (bound <= kthSquared) heap.push(right, bound);
    }
  }
}

/** A binary min-heap of nodes by bound, over scratch arrays with room for every node. */
class NodeHeap {
  size = 0;

  constructor(private readonly nodes: Int32Array, private readonly bounds: Float64Array) {}

  smallestBound(): number {
    return this.bounds[0] as number;
  }

  push(node: number, bound: number): void {
    const { nodes, bounds } = this;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >>> 1;
      if ((bounds[parent] as number) <= bound) break;
      nodes[i] = nodes[parent] as number;
      bounds[i] = bounds[parent] as number;
      i = parent;
    }
    nodes[i] = node;
    bounds[i] = bound;
  }

  pop(): number {
    const { nodes, bounds } = this;
    const top = nodes[0] as number;
    const size = --this.size;
    const node = nodes[size] as number;
    const bound = bounds[size] as number;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && (bounds[child + 1] as number) < (bounds[child] as number)) child++;
      if ((bounds[child] as number) >= bound) break;
      nodes[i] = nodes[child] as number;
      bounds[i] = bounds[child] as number;
      i = child;
    }
    nodes[i] = node;
    bounds[i] = bound;
    return top;
  }
}

/** Builds the k-d tree's nodes over ranges of `rows`, splitting at the median of the widest axis. */
class TreeBuilder {
  private readonly start: number[] = [];
  private readonly end: number[] = [];
  private readonly left: number[] = [];
  private readonly right: number[] = [];
  private readonly low: number[] = [];
  private readonly high: number[] = [];
  private readonly positionBits: number[] = [];

  constructor(private readonly rows: Uint32Array, private readonly coordinates: Float32Array, private readonly dims: number, private readonly positions: Uint8Array) {}

  build(start: number, end: number): number {
    const node = this.start.length;
    const { dims, coordinates } = this;
    this.start.push(start);
    this.end.push(end);
    this.left.push(-1);
    this.right.push(-1);
    let bits = 0;
    for (let i = start; i < end; i++) bits |= this.positions[this.rows[i] as number] as number;
    this.positionBits.push(bits);
    let widest = 0;
    let widestExtent = -1;
    for (let k = 0; k < dims; k++) {
      let low = Infinity;
      let high = -Infinity;
      for (let i = start; i < end; i++) {
        const x = coordinates[i * dims + k] as number;
        if (x < low) low = x;
        if (x > high) high = x;
      }
      this.low.push(low);
      this.high.push(high);
      if (high - low > widestExtent) { widestExtent = high - low; widest = k; }
    }
    if (end - start <= LEAF_ROWS || widestExtent <= 0) return node;
    const middle = (start + end) >>> 1;
    this.select(start, end, middle, widest);
    this.left[node] = this.build(start, middle);
    this.right[node] = this.build(middle, end);
    return node;
  }

  finish(): Pick<ProfileIndex, "nodeStart" | "nodeEnd" | "nodeLeft" | "nodeRight" | "boxLow" | "boxHigh" | "nodePositions"> {
    return {
      nodePositions: Uint8Array.from(this.positionBits),
      nodeStart: Uint32Array.from(this.start), nodeEnd: Uint32Array.from(this.end),
      nodeLeft: Int32Array.from(this.left), nodeRight: Int32Array.from(this.right),
      boxLow: Float32Array.from(this.low), boxHigh: Float32Array.from(this.high),
    };
  }

  /** Reorders [start, end) so position `nth` holds the value it would hold sorted on axis k, smaller before it, larger after (Hoare quickselect). */
  private select(start: number, end: number, nth: number, k: number): void {
    const { dims, coordinates } = this;
    let lo = start;
    let hi = end - 1;
    while (lo < hi) {
      const pivot = coordinates[((lo + hi) >>> 1) * dims + k] as number;
      let i = lo;
      let j = hi;
      while (i <= j) {
        while ((coordinates[i * dims + k] as number) < pivot) i++;
        while ((coordinates[j * dims + k] as number) > pivot) j--;
        if (i <= j) { this.swap(i, j); i++; j--; }
      }
      if (nth <= j) hi = j;
      else if (nth >= i) lo = i;
      else return;
    }
  }

  private swap(a: number, b: number): void {
    const { rows, coordinates, dims } = this;
    const row = rows[a] as number;
    rows[a] = rows[b] as number;
    rows[b] = row;
    for (let k = 0; k < dims; k++) {
      const x = coordinates[a * dims + k] as number;
      coordinates[a * dims + k] = coordinates[b * dims + k] as number;
      coordinates[b * dims + k] = x;
    }
  }
}

/**
 * The top `dims` principal axes of the standardised common columns (eigenvectors of their
 * covariance over an even sample of complete rows, by cyclic Jacobi rotations), as weights on raw
 * values. Any orthonormal axes keep the bound valid; principal ones make it tight.
 */
function principalWeights(attributes: Uint8Array, keyCount: number, columns: Int32Array, inverseSpread: Float64Array, rows: Uint32Array, dims: number): Float64Array {
  const f = columns.length;
  const weights = new Float64Array(dims * f);
  if (dims === 0) return weights;
  const step = Math.max(1, Math.floor(rows.length / AXIS_SAMPLE_ROWS));
  const mean = new Float64Array(f);
  const covariance = new Float64Array(f * f);
  const z = new Float64Array(f);
  let n = 0;
  for (let i = 0; i < rows.length; i += step) {
    const base = (rows[i] as number) * keyCount;
    for (let a = 0; a < f; a++) z[a] = (attributes[base + (columns[a] as number)] as number) * (inverseSpread[a] as number);
    for (let a = 0; a < f; a++) {
      mean[a] = (mean[a] as number) + (z[a] as number);
      for (let b = 0; b <= a; b++) covariance[a * f + b] = (covariance[a * f + b] as number) + (z[a] as number) * (z[b] as number);
    }
    n++;
  }
  for (let a = 0; a < f; a++) {
    for (let b = 0; b <= a; b++) {
      const value = n === 0 ? 0 : (covariance[a * f + b] as number) / n - ((mean[a] as number) / n) * ((mean[b] as number) / n);
      covariance[a * f + b] = value;
      covariance[b * f + a] = value;
    }
  }
  const { values, vectors } = symmetricEigen(covariance, f);
  const order = Array.from({ length: f }, (_, i) => i).sort((a, b) => (values[b] as number) - (values[a] as number));
  for (let k = 0; k < dims; k++) {
    const axis = order[k] as number;
    for (let i = 0; i < f; i++) weights[k * f + i] = (vectors[i * f + axis] as number) * (inverseSpread[i] as number);
  }
  return weights;
}

/** Eigenvalues and eigenvectors (columns of `vectors`) of a symmetric n × n matrix, by cyclic Jacobi. */
function symmetricEigen(matrix: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const vectors = new Float64Array(n * n);
  for (let i = 0; i < n; i++) vectors[i * n + i] = 1;
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += (a[p * n + q] as number) ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q] as number;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = ((a[q * n + q] as number) - (a[p * n + p] as number)) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p] as number;
          const akq = a[k * n + q] as number;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k] as number;
          const aqk = a[q * n + k] as number;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vkp = vectors[k * n + p] as number;
          const vkq = vectors[k * n + q] as number;
          vectors[k * n + p] = c * vkp - s * vkq;
          vectors[k * n + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: Float64Array.from({ length: n }, (_, i) => a[i * n + i] as number), vectors };
}
