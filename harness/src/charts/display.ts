/**
 * Output to the notebook. Inside a tslab kernel, one output can carry several MIME types at
 * once (SVG for crisp charts, PNG for untrusted JupyterLab and exported HTML, text for
 * terminals); tslab's public `display.raw` sends one type only, so we use the writer it
 * keeps for the running cell (core/kernel.ts). Outside a kernel (tests, scripts) text goes to stdout.
 */
import { cellWriter } from "../core/kernel";

export type MimeBundle = Record<string, string | Uint8Array>;

export interface Output {
  /** Replace this output's content (the first call creates it). */
  update(bundle: MimeBundle): void;
}

function encode(bundle: MimeBundle): Record<string, string> {
  const data: Record<string, string> = {};
  for (const [type, value] of Object.entries(bundle)) {
    data[type] = typeof value === "string" ? value : Buffer.from(value).toString("base64");
  }
  return data;
}

let counter = 0;

/** A new output that later calls overwrite in place (tslab's newDisplay, many MIME types). */
export function newOutput(): Output {
  const id = `workbook-${process.pid}-${Date.now()}-${++counter}`;
  let created = false;
  return {
    update(bundle: MimeBundle) {
      const write = cellWriter();
      if (!write) {
        if (typeof bundle["text/plain"] === "string") process.stdout.write(`${String(bundle["text/plain"])}\n`);
        return;
      }
      write({ data: encode(bundle), metadata: {}, transient: { display_id: id } }, created);
      created = true;
    },
  };
}

/** Show a bundle once. */
export function showBundle(bundle: MimeBundle): void {
  newOutput().update(bundle);
}

/** Markdown with the same text as its plain-text face: how notebooks put measured numbers into prose. Outside a kernel it prints the text. */
export function markdown(text: string): void {
  showBundle({ "text/markdown": text, "text/plain": text });
}

/**
 * Markdown to show at the end of the running cell, under everything the cell drew: what a load or a
 * profile ran, and what set its pace, printed by default wherever a cell runs one (apps/lifecycle.ts
 * flushes it as the cell ends, even when it fails). Outside a kernel it is dropped: a script prints its
 * own. The same text queued twice in one cell is shown once.
 */
const atEnd: string[] = [];

export function atCellEnd(text: string): void {
  if (cellWriter() && !atEnd.includes(text)) atEnd.push(text);
}

/** Show what atCellEnd() queued, and forget it (the running cell is ending). */
export function flushCellEnd(): void {
  for (const text of atEnd.splice(0)) markdown(text);
}
