import fs from "node:fs";
import { WorkbookError } from "../core/errors";

/**
 * Reading V8 heap snapshots (`v8.writeHeapSnapshot()`, the .heapsnapshot format Chrome DevTools
 * reads): the objects alive, grouped by constructor, and the chain of references that keeps an
 * object alive from a GC root. Written here rather than taken from memlab: memlab's packages bring
 * puppeteer (a browser download, for the browser leaks it was built for) to read a format that is
 * documented and small enough to read in a page of code (harness/METHOD.md says so too).
 */
interface Meta {
  node_fields: string[];
  node_types: [string[], ...unknown[]];
  edge_fields: string[];
  edge_types: [string[], ...unknown[]];
}

export interface HeapSnapshot {
  nodeCount: number;
  /** Per node: its type (index in types), name (index in strings), id, self size, first edge. */
  type: Uint8Array;
  name: Uint32Array;
  id: Uint32Array;
  selfSize: Float64Array;
  firstEdge: Uint32Array;
  /** Per edge: its type, name (a string index, or an element index), and target node. */
  edgeType: Uint8Array;
  edgeName: Uint32Array;
  edgeTo: Uint32Array;
  types: string[];
  edgeTypes: string[];
  strings: string[];
}

/** Parse a .heapsnapshot file into flat typed arrays. */
export function readHeapSnapshot(file: string): HeapSnapshot {
  type Raw = { snapshot?: { meta?: Meta; node_count: number }; nodes: number[]; edges: number[]; strings: string[] };
  const hint =
    "a heap snapshot is the .heapsnapshot file V8 writes (v8.writeHeapSnapshot, or the probe's heap-snapshot)";
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new WorkbookError("WB_NO_REPORT", `cannot read the heap snapshot ${file}: ${(e as Error).message}`, { hint });
  }
  let raw: Raw;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new WorkbookError(
      "WB_NO_REPORT",
      `not a heap snapshot (not JSON, or cut short): ${file} (${(e as Error).message})`,
      {
        hint,
      },
    );
  }
  const meta = raw?.snapshot?.meta;
  if (!meta?.node_fields || !meta.edge_fields || !Array.isArray(raw.nodes) || !Array.isArray(raw.edges))
    throw new WorkbookError(
      "WB_NO_REPORT",
      `not a heap snapshot (JSON without snapshot.meta, nodes and edges): ${file}`,
      {
        hint,
      },
    );
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const [nType, nName, nId, nSize, nEdges] = ["type", "name", "id", "self_size", "edge_count"].map((f) =>
    meta.node_fields.indexOf(f),
  );
  const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => meta.edge_fields.indexOf(f));
  const n = raw.nodes.length / nf;
  const s: HeapSnapshot = {
    nodeCount: n,
    type: new Uint8Array(n),
    name: new Uint32Array(n),
    id: new Uint32Array(n),
    selfSize: new Float64Array(n),
    firstEdge: new Uint32Array(n + 1),
    edgeType: new Uint8Array(raw.edges.length / ef),
    edgeName: new Uint32Array(raw.edges.length / ef),
    edgeTo: new Uint32Array(raw.edges.length / ef),
    types: meta.node_types[0],
    edgeTypes: meta.edge_types[0],
    strings: raw.strings,
  };
  let edge = 0;
  for (let i = 0; i < n; i++) {
    const o = i * nf;
    s.type[i] = raw.nodes[o + nType];
    s.name[i] = raw.nodes[o + nName];
    s.id[i] = raw.nodes[o + nId];
    s.selfSize[i] = raw.nodes[o + nSize];
    s.firstEdge[i] = edge;
    edge += raw.nodes[o + nEdges];
  }
  s.firstEdge[n] = edge;
  for (let e = 0; e < s.edgeTo.length; e++) {
    const o = e * ef;
    s.edgeType[e] = raw.edges[o + eType];
    s.edgeName[e] = raw.edges[o + eName];
    s.edgeTo[e] = raw.edges[o + eTo] / nf;
  }
  return s;
}

/** The name a node is grouped by: its constructor for objects ("Map", "Object"), its kind for the rest ("(string)", "(closure)"). */
export function groupOf(s: HeapSnapshot, i: number): string {
  const type = s.types[s.type[i]];
  const name = s.strings[s.name[i]];
  if (type === "object" || type === "native") return name;
  if (type === "closure") return "(closure)";
  return `(${type})`;
}

export interface HeapGroup {
  name: string;
  count: number;
  /** Bytes of the objects themselves (their self size), not what they keep alive. */
  bytes: number;
}

/** Objects alive by group, largest first. */
export function heapGroups(s: HeapSnapshot): Map<string, HeapGroup> {
  const out = new Map<string, HeapGroup>();
  for (let i = 0; i < s.nodeCount; i++) {
    const key = groupOf(s, i);
    const g = out.get(key) ?? { name: key, count: 0, bytes: 0 };
    g.count++;
    g.bytes += s.selfSize[i];
    out.set(key, g);
  }
  return out;
}

export interface GroupGrowth {
  name: string;
  countBefore: number;
  countAfter: number;
  /** After minus before. */
  count: number;
  bytes: number;
}

/** What grew between two snapshots, by group: the groups that gained the most bytes first. */
export function heapGrowth(before: HeapSnapshot, after: HeapSnapshot, top = 10): GroupGrowth[] {
  const a = heapGroups(before);
  return [...heapGroups(after).values()]
    .map((g) => {
      const b = a.get(g.name) ?? { count: 0, bytes: 0 };
      return {
        name: g.name,
        countBefore: b.count,
        countAfter: g.count,
        count: g.count - b.count,
        bytes: g.bytes - b.bytes,
      };
    })
    .sort((x, y) => y.bytes - x.bytes)
    .slice(0, top);
}

export interface RetainerStep {
  /** The referring object's group ("Map", "system / Context", "(closure)") and, for a function, its name. */
  holder: string;
  /** How it refers to the next one: a property or variable name ("cache"), "[element]", or an internal link. */
  edge: string;
  edgeType: string;
}

/**
 * The shortest chain of strong references from a GC root to the node `target` (breadth first over
 * reversed edges; weak edges do not keep anything alive and are skipped). Each step names the holder
 * and the reference: a module-level `const cache = new Map()` shows as a closure's context with a
 * variable named `cache`. Returns [] when nothing reaches the node. `index`: retainerIndex(s), to reuse.
 */
export interface RetainerIndex {
  /** For node i, its retainers are from[first[i]..first[i+1]) through the edges edge[...]: weak edges left out. */
  first: Uint32Array;
  from: Uint32Array;
  edge: Uint32Array;
}

/** Who refers to whom, reversed, once per snapshot (compressed rows: a few arrays, not an array per node). */
export function retainerIndex(s: HeapSnapshot): RetainerIndex {
  const weak = s.edgeTypes.indexOf("weak");
  const first = new Uint32Array(s.nodeCount + 1);
  for (let e = 0; e < s.edgeTo.length; e++) if (s.edgeType[e] !== weak) first[s.edgeTo[e] + 1]++;
  for (let i = 0; i < s.nodeCount; i++) first[i + 1] += first[i];
  const fill = first.slice(0, s.nodeCount);
  const from = new Uint32Array(first[s.nodeCount]);
  const edge = new Uint32Array(first[s.nodeCount]);
  for (let i = 0; i < s.nodeCount; i++) {
    for (let e = s.firstEdge[i]; e < s.firstEdge[i + 1]; e++) {
      if (s.edgeType[e] === weak) continue;
      const k = fill[s.edgeTo[e]]++;
      from[k] = i;
      edge[k] = e;
    }
  }
  return { first, from, edge };
}

/** GC roots that hold what is in use this instant (a request being answered, a function being compiled), not what is kept. */
const TRANSIENT_ROOT = /^\((Stack roots|Handle scope)\)$/;

/** The shortest chain of references from a GC root (not a transient one) to `target`, root first; [] when none within `maxDepth`. */
export function retainerPath(s: HeapSnapshot, target: number, index = retainerIndex(s), maxDepth = 40): RetainerStep[] {
  // Node 0 is the synthetic root; its children are the GC roots. The transient ones are never
  // walked through: an object a stack also holds is reported by the variable that keeps it.
  const transient = (i: number) => s.types[s.type[i]] === "synthetic" && TRANSIENT_ROOT.test(s.strings[s.name[i]]);
  const via = new Map<number, { from: number; edge: number }>([[target, { from: -1, edge: -1 }]]);
  let frontier = [target];
  for (let depth = 0; depth < maxDepth && frontier.length && !via.has(0); depth++) {
    const next: number[] = [];
    for (const node of frontier) {
      for (let k = index.first[node]; k < index.first[node + 1]; k++) {
        const from = index.from[k];
        if (via.has(from) || transient(from)) continue;
        via.set(from, { from: node, edge: index.edge[k] });
        next.push(from);
      }
    }
    frontier = next;
  }
  if (!via.has(0)) return [];
  const steps: RetainerStep[] = [];
  for (let node = via.get(0)!.from; node !== target; ) {
    const { from: child, edge } = via.get(node)!;
    steps.push({ holder: holderName(s, node), edge: edgeName(s, edge), edgeType: s.edgeTypes[s.edgeType[edge]] });
    node = child;
  }
  return steps;
}

function holderName(s: HeapSnapshot, i: number): string {
  const type = s.types[s.type[i]];
  const name = s.strings[s.name[i]];
  if (type === "closure") return `function ${name || "(anonymous)"}`;
  if (type === "synthetic") return name || "(root)";
  return groupOf(s, i);
}

function edgeName(s: HeapSnapshot, e: number): string {
  const t = s.edgeTypes[s.edgeType[e]];
  if (t === "element" || t === "hidden") return `[${s.edgeName[e]}]`;
  return s.strings[s.edgeName[e]] ?? `[${s.edgeName[e]}]`;
}

/** The nodes of `group` in `after` that were not in `before` (new since it), in index order. */
export function newNodesOf(after: HeapSnapshot, before: HeapSnapshot, group: string): number[] {
  const old = new Set<number>();
  for (let i = 0; i < before.nodeCount; i++) old.add(before.id[i]);
  const out: number[] = [];
  for (let i = 0; i < after.nodeCount; i++) if (!old.has(after.id[i]) && groupOf(after, i) === group) out.push(i);
  return out;
}
