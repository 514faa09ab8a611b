/**
 * The Osgood post (Intrinsic, 2019): "Hello, World!" at 10 connections with wrk, before and after
 * the version 0.2 optimisations notebook 05 measures one by one, beside Node 12.7 on the same
 * machine. Figures as published; the machine and its cores are not given.
 */
export interface PublishedHelloRow {
  label: string;
  reqPerSec: number;
  /** wrk's latency standard deviation, ms; null where the post gives none. */
  stdevMs: number | null;
}

export interface PublishedHelloTable {
  title: string;
  source: string;
  command: string;
  connections: number;
  rows: PublishedHelloRow[];
}

export const publishedOsgood: PublishedHelloTable = {
  title: "Osgood 0.1 -> 0.2 (2019)",
  source:
    'The Osgood 0.2 release post (Intrinsic, 2019): a "Hello, World!" handler at 10 connections, Osgood 0.1 and 0.2 and Node 12.7; averages of one run each, the machine not given.',
  command: "wrk -c10",
  connections: 10,
  rows: [
    { label: "Osgood 0.1", reqPerSec: 25_261, stdevMs: 9.91 },
    { label: "Osgood 0.2", reqPerSec: 77_450, stdevMs: 0.219 },
    { label: "Node 12.7", reqPerSec: 31_159, stdevMs: null },
  ],
};
