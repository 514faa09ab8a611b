import { AppStartError } from "../core/errors";
import { isLoopbackHost } from "../core/loopback";
import { sleep } from "../core/time";
import type { AppChannel, ListenReport } from "./channel";
import { exitText, type GroupProcess } from "./spawn";

/**
 * How the harness learns where an app listens, from the app itself: the workbook's own apps print
 * one JSON line (apps/lib/contract.js); any other Node server is heard through the probe, which
 * reports its 'listening' events. Whichever comes first wins. The errors say what happened and
 * what to try, with the ends of both stdout and stderr.
 */
export interface Listening {
  url: string;
  port: number;
  /** The app's own pid (differs from the group's when a wrapper such as clinic started it). */
  pid: number;
  /** The address as the app bound it, e.g. "127.0.0.1", "0.0.0.0", "::". */
  address: string;
  /** Set when the app listens beyond loopback (all interfaces): a sentence to print. */
  warning: string | null;
}

export interface WaitOptions {
  name: string;
  timeoutMs: number;
  /** How long to wait after a first report from the probe for a second one (an app that listens twice). */
  settleMs: number;
  /** Of several addresses, take the one with this port. */
  port?: number;
  /** The app must listen on `port` (default true); false: only of several addresses is the one on `port` taken. */
  portRequired?: boolean;
}

const ALL = new Set(["0.0.0.0", "::", "::0", ""]);

/** A loopback URL for an address the app reported; throws for one the harness may not load. */
export function urlFor(report: ListenReport, name: string): { url: string; warning: string | null } {
  if (report.port === null) {
    throw new AppStartError(
      "WB_APP_UNREACHABLE",
      `app "${name}" listens on a pipe (${report.address}), not a TCP port`,
      {
        app: name,
        hint: "the load tests speak HTTP over TCP: listen on a port (PORT is set for you)",
      },
    );
  }
  if (ALL.has(report.address)) {
    return {
      url: `http://127.0.0.1:${report.port}`,
      warning:
        `app "${name}" listens on all interfaces (${report.address || "*"}:${report.port}): while it runs, other machines on ` +
        "your network can reach it. The harness loads it on 127.0.0.1 only. To keep it private, listen on process.env.HOST (127.0.0.1).",
    };
  }
  if (!isLoopbackHost(report.address)) {
    throw new AppStartError(
      "WB_APP_UNREACHABLE",
      `app "${name}" listens on ${report.address}:${report.port}, which is not this machine's loopback`,
      {
        app: name,
        hint: "the workbook only loads loopback: listen on 127.0.0.1, or on all interfaces",
      },
    );
  }
  const host = report.address.includes(":") ? `[${report.address}]` : report.address;
  return { url: `http://${host}:${report.port}`, warning: null };
}

function contractLine(line: string): { url: string; port: number; pid: number } | null {
  if (!line.startsWith("{")) return null;
  try {
    const msg = JSON.parse(line);
    return msg.workbook === "listening" ? { url: msg.url, port: msg.port, pid: msg.pid } : null;
  } catch {
    return null;
  }
}

/** Resolves once the app listens; an AppStartError when it exits first, stays silent, or listens twice. */
export function waitListening(p: GroupProcess, channel: AppChannel | null, o: WaitOptions): Promise<Listening> {
  const tails = () => ({ app: o.name, stdout: p.stdout.text(), stderr: p.stderr.text() });
  return new Promise<Listening>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => Listening) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      try {
        resolve(fn());
      } catch (e) {
        reject(e);
      }
    };
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(e);
    };
    const timer = setTimeout(
      () =>
        fail(
          new AppStartError(
            "WB_APP_SILENT",
            `app "${o.name}" did not listen within ${o.timeoutMs} ms, and did not exit`,
            {
              ...tails(),
              hint:
                "the harness learns the address from the server's 'listening' event, so the app must call listen() (any port: PORT is set to 0). " +
                "Is it waiting for something first (a database, a file)? Does it print a line you expected? A slow start: raise startTimeoutMs.",
            },
          ),
        ),
      o.timeoutMs,
    );
    p.lines.on("line", (line) => {
      const c = contractLine(line);
      if (c)
        finish(() => ({
          url: c.url,
          port: c.port,
          pid: c.pid ?? p.groupId,
          address: new URL(c.url).hostname,
          warning: null,
        }));
    });
    channel?.once("listening", () => {
      void sleep(o.settleMs).then(() =>
        finish(() => {
          const tcp = channel.listens;
          const on = tcp.filter((l) => l.port === o.port);
          const loose = o.portRequired === false;
          const chosen = o.port === undefined || (loose && (tcp.length === 1 || on.length === 0)) ? tcp : on;
          if (chosen.length !== 1) {
            const where = tcp.map((l) => `${l.address}:${l.port}`).join(" and ");
            throw new AppStartError(
              "WB_APP_LISTENED_TWICE",
              o.port === undefined || loose
                ? `app "${o.name}" listens on ${tcp.length} addresses (${where})${loose ? `, none of them the port it was given in PORT (${o.port})` : ""}: the harness cannot tell which one serves HTTP`
                : `app "${o.name}" does not listen on port ${o.port} (it listens on ${where})`,
              {
                ...tails(),
                hint: `name the port to load: make diagnose APP=... PORT=N (the option { port: N } of startApp, or start: { port: N } of diagnose), one of ${tcp.map((l) => l.port).join(", ")}; or make the app listen once, on PORT`,
              },
            );
          }
          const { url, warning } = urlFor(chosen[0], o.name);
          return { url, port: chosen[0].port!, pid: channel.pid ?? p.groupId, address: chosen[0].address, warning };
        }),
      );
    });
    void p.exited.then(async (info) => {
      await sleep(50); // the last lines of stdout and stderr
      const how = exitText(info);
      fail(
        new AppStartError("WB_APP_EXITED", `app "${o.name}" ${how} before it listened`, {
          ...tails(),
          hint:
            info.code === 0 && !info.signal
              ? "it ended without error: it never started a server, or it started one in another process. Run it yourself and see whether it keeps running"
              : "it crashed while starting: the end of its stderr (below) says why. Run it yourself to see the whole error",
        }),
      );
    });
  });
}
