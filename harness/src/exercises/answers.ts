import { loopbackUrl } from "../core/loopback";
import type { ExerciseRequest } from "./spec";

/**
 * Comparing a learner's answers with the reference's, request by request, before anything is
 * measured: status, headers, bodies (byte for byte, or by JSON shape for random data), and the
 * `match` / `fresh` rules of a request.
 */

export interface ResponseDiff {
  request: string;
  ok: boolean;
  problem?: string;
}

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

async function ask(base: string, r: ExerciseRequest, timeoutMs: number): Promise<Answer | string> {
  try {
    const res = await fetch(loopbackUrl(base, r.path), {
      method: r.method ?? "GET",
      headers: r.headers,
      body: r.body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, headers: res.headers, body: await res.text() };
  } catch (err) {
    const e = err as Error & { cause?: { code?: string } };
    return e.name === "TimeoutError"
      ? `no answer within ${timeoutMs} ms`
      : `the request failed (${e.cause?.code ?? e.message})`;
  }
}

const show = (s: string | null, at = 0) =>
  s === null ? "none" : JSON.stringify(s.length > 60 ? `${at > 0 ? "..." : ""}${s.slice(at, at + 60)}...` : s);
const norm = (v: string | null) => (v === null ? null : v.toLowerCase().replace(/\s+/g, ""));

/**
 * The shape of a JSON body, for answers that differ on every request (random data, time stamps):
 * the same keys in the same order, the same types, strings of the same length. Not JSON: "not JSON".
 */
export function jsonShape(body: string): string {
  const shape = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(shape);
    if (v === null) return "null";
    if (typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]));
    return typeof v === "string" ? `string(${v.length})` : typeof v;
  };
  try {
    return JSON.stringify(shape(JSON.parse(body)));
  } catch {
    return "not JSON";
  }
}

/** A request's `match` and `fresh` rules on the learner's JSON answer (`before`: its previous answer to the same path). */
function valueProblem(r: ExerciseRequest, body: string, before: string | undefined): string | undefined {
  const parse = (text: string | undefined) => {
    try {
      return text === undefined ? undefined : JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  const [doc, prev] = [parse(body), parse(before)];
  if (doc === undefined || doc === null || typeof doc !== "object") return "the body is not a JSON object";
  for (const [key, pattern] of Object.entries(r.match ?? {})) {
    const v = doc[key];
    if (typeof v !== "string" || !new RegExp(pattern).test(v))
      return `"${key}" is ${typeof v === "string" ? show(v) : (JSON.stringify(v) ?? "missing")}, expected a string matching /${pattern.length > 40 ? `${pattern.slice(0, 40)}...` : pattern}/`;
  }
  for (const key of r.fresh ?? []) {
    if (prev && typeof prev === "object" && JSON.stringify(prev[key]) === JSON.stringify(doc[key])) {
      return `"${key}" is the same as in the previous answer to ${r.path}: each answer must be made fresh, not served again from a cache`;
    }
  }
  return undefined;
}

/** Ask both apps the same requests, one after the other; say what differs in the learner's answers. */
export async function compareResponses(
  referenceUrl: string,
  submissionUrl: string,
  requests: ExerciseRequest[],
  defaults: string[] = ["status", "content-type", "body"],
  timeoutMs = 5000,
): Promise<ResponseDiff[]> {
  const out: ResponseDiff[] = [];
  const previous = new Map<string, string>();
  for (const r of requests) {
    const label = `${r.method ?? "GET"} ${r.path}`;
    const [want, got] = [await ask(referenceUrl, r, timeoutMs), await ask(submissionUrl, r, timeoutMs)];
    if (typeof want === "string") throw new Error(`the reference app gave no answer to ${label}: ${want}`);
    let problem: string | undefined;
    if (typeof got === "string") problem = got;
    else {
      for (const field of r.compare ?? defaults) {
        if (field === "status" && got.status !== want.status)
          problem = `status ${got.status}, expected ${want.status} (body ${show(got.body)})`;
        else if (field === "body" && got.body !== want.body) {
          let at = 0;
          while (got.body[at] === want.body[at]) at++;
          problem = `body differs at character ${at}: ${show(got.body, Math.max(0, at - 20))}, expected ${show(want.body, Math.max(0, at - 20))}`;
        } else if (field === "json-shape") {
          const [g, w] = [jsonShape(got.body), jsonShape(want.body)];
          if (g !== w) problem = `the JSON's shape ${show(g)}, expected ${show(w)}`;
        } else if (
          field !== "status" &&
          field !== "body" &&
          norm(got.headers.get(field)) !== norm(want.headers.get(field))
        ) {
          problem = `${field} ${show(got.headers.get(field))}, expected ${show(want.headers.get(field))}`;
        }
        if (problem) break;
      }
      if (!problem && (r.match || r.fresh)) problem = valueProblem(r, got.body, previous.get(r.path));
      previous.set(r.path, got.body);
    }
    out.push({ request: label, ok: !problem, ...(problem ? { problem } : {}) });
  }
  return out;
}
