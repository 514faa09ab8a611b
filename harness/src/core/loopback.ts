import net from "node:net";
import { WorkbookError } from "./errors";

/**
 * True when the host names this machine's loopback: localhost, 127.0.0.0/8 or ::1. Not
 * "*.localhost": whether such a name resolves to loopback depends on the resolver (glibc asks DNS).
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost") return true;
  if (net.isIPv4(host)) return host.startsWith("127.");
  if (net.isIPv6(host)) return host === "::1" || /^::ffff:127\./.test(host);
  return false;
}

/** Throws unless the URL targets loopback: load tests never leave this machine. */
export function assertLoopback(target: string): URL {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new WorkbookError("WB_BAD_OPTION", `not a valid URL: ${JSON.stringify(target)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new WorkbookError(
      "WB_NOT_LOOPBACK",
      `refusing ${url.protocol} target ${target}: only http(s) on loopback is load-tested`,
    );
  }
  if (!isLoopbackHost(url.hostname)) {
    throw new WorkbookError(
      "WB_NOT_LOOPBACK",
      `refusing to load-test ${url.host}: the workbook only targets loopback (127.0.0.1, localhost, ::1)`,
    );
  }
  return url;
}

/**
 * `path` resolved against `base` the way a browser resolves a link, refused unless the resolved
 * URL is loopback too: a "path" such as "//example.com/x" or "http://10.0.0.1/" would otherwise
 * take a load test off this machine. Every place the harness joins a path to a base uses this.
 */
export function loopbackUrl(base: string, path = "/"): URL {
  const root = assertLoopback(base);
  let url: URL;
  try {
    url = new URL(path, root);
  } catch {
    throw new WorkbookError("WB_BAD_OPTION", `not a valid path: ${JSON.stringify(path)}`);
  }
  try {
    return assertLoopback(url.href);
  } catch (e) {
    throw new WorkbookError(
      "WB_NOT_LOOPBACK",
      `refusing path ${JSON.stringify(path)}: it resolves to ${url.protocol}//${url.host}. ${(e as Error).message}`,
    );
  }
}
