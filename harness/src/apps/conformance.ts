import fs from "node:fs";
import path from "node:path";
import { loopbackUrl } from "../core/loopback";
import { appsDir } from "../core/paths";

/**
 * Conformance: before a framework is measured, check that it serves what its siblings serve.
 * A server that answers faster with the wrong body (or a 404) is not faster.
 */
export interface RouteCheck {
  path: string;
  /** OPTIONAL, default "GET". */
  method?: string;
  /** OPTIONAL: sent as a JSON request body. */
  requestBody?: unknown;
  status: number;
  /** OPTIONAL: the response's content-type must start with this (case-insensitive). */
  contentType?: string;
  /** OPTIONAL: the exact body text, or a function returning what is wrong with it (null: nothing). */
  body?: string | ((text: string) => string | null);
}

export interface RouteResult {
  path: string;
  method: string;
  ok: boolean;
  /** null when no response came back. */
  status: number | null;
  contentType: string | null;
  error?: string;
}

export interface ConformanceResult {
  ok: boolean;
  routes: RouteResult[];
}

/** The image names /blog picks from: the file the apps' payload module reads. */
export const IMAGES_FILE: string = path.join(appsDir, "frameworks", "lib", "images.json");

export interface ImageList {
  perPost: number;
  names: string[];
}

let images: ImageList | undefined;
export function imageList(): ImageList {
  images ??= JSON.parse(fs.readFileSync(IMAGES_FILE, "utf8")) as ImageList;
  return images;
}

function preview(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

const BLOG_KEYS = ["author", "body", "images", "title"];

/** null when `text` is a valid /blog post, else what is wrong with it. */
export function checkBlogBody(text: string): string | null {
  let post: unknown;
  try {
    post = JSON.parse(text);
  } catch {
    return `body is not JSON: ${preview(text)}`;
  }
  if (post === null || typeof post !== "object" || Array.isArray(post)) return "body is not a JSON object";
  const fields = post as Record<string, unknown>;
  const keys = Object.keys(fields).sort();
  if (keys.join() !== BLOG_KEYS.join()) return `keys are [${keys.join(", ")}], expected [${BLOG_KEYS.join(", ")}]`;
  for (const key of ["title", "author", "body"]) {
    if (typeof fields[key] !== "string" || fields[key] === "") return `${key} is not a non-empty string`;
  }
  const { perPost, names } = imageList();
  const picked = fields.images;
  if (!Array.isArray(picked)) return "images is not an array";
  if (picked.length !== perPost) return `images has ${picked.length} names, expected ${perPost}`;
  const strangers = picked.filter((name) => !names.includes(name as string));
  if (strangers.length > 0) return `images not in images.json: ${JSON.stringify(strangers)}`;
  if (new Set(picked).size !== picked.length) return `images repeats a name: ${JSON.stringify(picked)}`;
  return null;
}

/** What every app in apps/frameworks/ serves, and a 404 for anything else. */
export const DEFAULT_CHECKS: readonly RouteCheck[] = Object.freeze([
  { path: "/hello", status: 200, contentType: "text/plain", body: "Hello, World!" },
  { path: "/json", status: 200, contentType: "application/json", body: '{"hello":"world"}' },
  { path: "/blog", status: 200, contentType: "application/json", body: checkBlogBody },
  { path: "/no-such-route", status: 404 },
]);

function describe(err: unknown, timeoutMs: number): string {
  const error = err as Error & { cause?: { code?: string; message?: string } };
  if (error.name === "TimeoutError") return `no complete answer within ${timeoutMs} ms`;
  const cause = error.cause ? ` (${error.cause.code ?? error.cause.message})` : "";
  return `request failed: ${error.message}${cause}`;
}

function mismatch(check: RouteCheck, status: number, contentType: string | null, text: string): string | null {
  if (status !== check.status) return `status ${status}, expected ${check.status}; body ${preview(text)}`;
  const wanted = check.contentType?.toLowerCase();
  if (wanted !== undefined && !(contentType ?? "").toLowerCase().startsWith(wanted)) {
    return `content-type ${JSON.stringify(contentType)}, expected one starting with ${JSON.stringify(wanted)}`;
  }
  if (typeof check.body === "string" && text !== check.body)
    return `body ${preview(text)}, expected ${preview(check.body)}`;
  if (typeof check.body === "function") return check.body(text);
  return null;
}

async function checkRoute(baseUrl: string, check: RouteCheck, timeoutMs: number): Promise<RouteResult> {
  const method = check.method ?? "GET";
  const result: RouteResult = { path: check.path, method, ok: false, status: null, contentType: null };
  const init: RequestInit = { method, signal: AbortSignal.timeout(timeoutMs), redirect: "manual" };
  if (check.requestBody !== undefined) {
    init.body = JSON.stringify(check.requestBody);
    init.headers = { "content-type": "application/json" };
  }
  let text: string;
  try {
    const response = await fetch(loopbackUrl(baseUrl, check.path), init);
    result.status = response.status;
    result.contentType = response.headers.get("content-type");
    text = await response.text();
  } catch (err) {
    result.error = describe(err, timeoutMs);
    return result;
  }
  const error = mismatch(check, result.status, result.contentType, text);
  if (error === null) result.ok = true;
  else result.error = error;
  return result;
}

/**
 * Fetch each route in turn, each with its own timeout (default 5000 ms), and report every
 * failure rather than the first: `{ ok, routes: [{ path, method, ok, status, contentType, error? }] }`.
 */
export async function checkRoutes(
  baseUrl: string,
  checks: readonly RouteCheck[] = DEFAULT_CHECKS,
  timeoutMs = 5000,
): Promise<ConformanceResult> {
  const routes: RouteResult[] = [];
  for (const check of checks) routes.push(await checkRoute(baseUrl, check, timeoutMs));
  return { ok: routes.every((route) => route.ok), routes };
}
