import path from "node:path";
import { repoRoot } from "@workbook/harness";
import { type Frame, frameOf, PROBE_FILE, type V8CpuProfile } from "@workbook/harness/internal";

/**
 * Whose busy time a CPU sample is: the code that asked for it. A sample's stack is read from its
 * leaf towards the root, and the first frame of the app's or of a package's own code on the way is
 * its **owner**: everything under it, Node's library calls included (structuredClone, util.inspect,
 * new URL, Buffer...: the app asked for them), is that code's call. A call into Node's HTTP, socket
 * and stream modules (res.end, res.setHeader: what every server does to answer, a bare one too) is
 * Node's request handling, whoever made it. A web framework's own code (FRAMEWORKS) is the
 * framework's handling when the framework runs it, and the app's call when the app's code called it
 * (res.json, a req.query getter read in a loop: the app asked). A package the framework calls on the
 * way (a router, a body parser, a resource handler mounted on its router) is that package's own, as
 * one the app calls is: what the framework's own hello route spends in each is subtracted later
 * (yardstick.ts), only the excess counts.
 *
 * A package that another package called (the lexer and parser a template engine calls, lodash under
 * json-server's router) is the calling package's work: the app or the framework asked for the outer
 * one, and that is the package its owner can change or call less. So a package's work belongs to the
 * outermost package of the run of packages (frameworks apart) above the leaf.
 *
 * The **path** of a sample runs from its head to its leaf: the head is the outermost frame of that
 * run of code (the app's, or the packages') reached from the owner through its frames and Node's,
 * before any other code's frame, which is the one that **called** it (a framework's router, the app's
 * handler that called a library).
 */

/**
 * The web frameworks: the packages whose own code is a server's request handling. A package they call
 * (a router, a body parser, etag) is not in here: it is that package's work, set against what the
 * framework's reference spends on it (yardstick.ts).
 */
export const FRAMEWORKS: ReadonlySet<string> = new Set([
  ...["express", "router", "connect", "fastify", "koa", "koa-compose", "@koa/router", "koa-router", "h3", "srvx"],
  ...["hono", "@hono/node-server", "polka", "restify", "micro", "@hapi/hapi", "@nestjs/core", "@tinyhttp/app"],
]);

/** The package a dependency's frame belongs to: the folder after its path's last node_modules ("@scope/name" for a scoped one). */
export function packageOf(file: string): string | null {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0 || at + 1 >= parts.length) return null;
  return parts[at + 1].startsWith("@") ? parts.slice(at + 1, at + 3).join("/") : parts[at + 1];
}

// Node's modules that answer a request: the HTTP exchange, sockets, TLS and streams.
const HANDLING_FILE =
  /^node:(?:_http_\w+|https?$|net$|tls$|_tls_\w+|stream$|internal\/(?:streams\/|stream_base_commons|http\b|js_stream_socket|net\b|tls\/))/;

/** A call into Node's request handling (res.end, res.writeHead, a socket's write): a server's answer, whoever made it. */
export const isHandlingCall = (f: Frame) => f.category === "node" && HANDLING_FILE.test(f.file);

/** The workbook's probe runs inside the app (its sampling timer) but is none of the app's code. */
const isProbe = (f: Frame) => f.category === "user" && path.resolve(repoRoot, f.file) === PROBE_FILE;

type Owner = { kind: "app" } | { kind: "package"; name: string };

/** Whose code a frame is: the app's, a package's, or nobody's (Node's, V8's, a native function, the probe). */
export function ownerOf(f: Frame): Owner | null {
  if (f.category === "user") return isProbe(f) ? null : { kind: "app" };
  if (f.category !== "dependency") return null;
  const name = packageOf(f.file);
  return name ? { kind: "package", name } : { kind: "app" };
}

export type CallerKind = "app" | "dependency" | "framework" | "node";

/** Who asked for a sample's work (indexes into its stack, leaf first; -1 for none). */
export interface Caller {
  kind: CallerKind;
  /** The innermost frame of the app's or of a package's code. */
  owner: number;
  /** The outermost frame of the owner's own code before another's: where its path starts; -1 for Node's handling. */
  head: number;
  /** The frame of other code that called the head (a framework's router, the app's handler), or -1. */
  calledBy: number;
  /** For a package's work (dependency or framework), its name: the outermost package of the run (the head's). */
  package: string | null;
}

const same = (a: Owner, b: Owner) => a.kind === b.kind && (a.kind === "app" || a.name === (b as { name: string }).name);

/** Who asked for the work of a sample whose stack is `stack`, leaf first (callers.ts's rules above). */
export function callerOf(stack: readonly Frame[]): Caller {
  const inner = stack.findIndex((f) => ownerOf(f) !== null);
  const none: Caller = { kind: "node", owner: inner, head: -1, calledBy: -1, package: null };
  if (inner < 0 || (inner > 0 && isHandlingCall(stack[inner - 1]))) return none;
  // a framework's code that the app's code called (res.json, a getter of req) is the app's call
  const framework = (f: Frame) => FRAMEWORKS.has(packageOf(f.file) ?? "") && f.category === "dependency";
  const app = framework(stack[inner]) ? stack.findIndex((f, i) => i > inner && ownerOf(f)?.kind === "app") : -1;
  const owner = app >= 0 ? app : inner;
  let who = ownerOf(stack[owner])!;
  let head = owner;
  let calledBy = -1;
  // a package that another package called (pug's lexer, lodash under json-server) is the outer one's work
  const dependency = (w: Owner) => w.kind === "package" && !FRAMEWORKS.has(w.name);
  for (let i = owner + 1; i < stack.length; i++) {
    const w = ownerOf(stack[i]);
    if (!w) continue;
    if (!same(w, who) && !(dependency(w) && dependency(who))) {
      calledBy = i;
      break;
    }
    who = w;
    head = i;
  }
  if (who.kind === "app") return { kind: "app", owner, head, calledBy, package: null };
  const kind = FRAMEWORKS.has(who.name) ? "framework" : "dependency";
  return { kind, owner, head, calledBy, package: who.name };
}

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The line of `fn`'s source (its file's lines) that calls `callee` by name: V8's profile names the
 * function that made a call, not the line; the function's text does, when exactly one of its lines
 * calls that name (`structuredClone(`, `.inspect(`, `.compile(`), or where none does, exactly one
 * reads it as a property (a getter: `req.query.status`). Null otherwise: none or several.
 */
export function callLine(
  source: readonly string[] | null,
  fn: Frame,
  callee: string,
): { file: string; line: number; text: string } | null {
  if (!source || fn.line < 1 || !/^[\w$]+$/.test(callee)) return null;
  const indent = (l: string) => /^\s*/.exec(l)![0].length;
  const start = fn.line - 1;
  const body: number[] = [];
  for (let i = start; i < Math.min(source.length, start + 80); i++) {
    if (i > start && /^\s*}/.test(source[i]) && indent(source[i]) <= indent(source[start])) break; // the function's end
    body.push(i);
  }
  // a call by name (`structuredClone(`, `.compile(`), else a getter read (`req.query.status`)
  for (const pattern of [`(?:^|[^\\w$])${escaped(callee)}\\s*\\(`, `\\.${escaped(callee)}\\b(?!\\s*\\()`]) {
    const found = body.filter((i) => new RegExp(pattern).test(source[i]));
    if (found.length === 1) return { file: fn.file, line: found[0] + 1, text: source[found[0]].trim() };
    if (found.length > 1) return null;
  }
  return null;
}

/**
 * The heaviest path through some stacks that share their first frame (head first, leaf last, each
 * with its samples): from the head, on to the callee that holds at least half of the samples so far,
 * as long as one does.
 */
export function heaviestPath(stacks: readonly { frames: readonly Frame[]; samples: number }[]): Frame[] {
  const key = (f: Frame) => `${f.name}|${f.file}|${f.line}`;
  if (!stacks.length) return [];
  const out = [stacks[0].frames[0]];
  let set = stacks;
  for (let depth = 1; ; depth++) {
    const total = set.reduce((a, s) => a + s.samples, 0);
    const by = new Map<string, { frame: Frame; samples: number; stacks: (typeof set)[number][] }>();
    for (const s of set) {
      const f = s.frames[depth];
      if (!f) continue;
      const g = by.get(key(f)) ?? { frame: f, samples: 0, stacks: [] };
      g.samples += s.samples;
      g.stacks.push(s);
      by.set(key(f), g);
    }
    const best = [...by.values()].sort((a, b) => b.samples - a.samples)[0];
    if (!best || best.samples * 2 < total) return out;
    out.push(best.frame);
    set = best.stacks;
  }
}

/** A profile's call tree indexed: each node's frame, its url, its stack (ids, leaf first). */
export interface IndexedProfile {
  node: (id: number) => V8CpuProfile["nodes"][number] | undefined;
  frame: (id: number) => Frame;
  stackIds: (id: number) => number[];
}

export function indexProfile(profile: V8CpuProfile): IndexedProfile {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const frames = new Map(profile.nodes.map((n) => [n.id, frameOf(n.callFrame)]));
  return {
    node: (id) => byId.get(id),
    frame: (id) => frames.get(id)!,
    stackIds: (id) => {
      const out: number[] = [];
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) out.push(at);
      return out;
    },
  };
}
