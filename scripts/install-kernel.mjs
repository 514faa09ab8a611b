// Registers the tslab (TypeScript) kernel into the project's venv (--sys-prefix), pointing at
// THIS checkout's pinned Node and tslab by absolute path. Rerun on every setup: the paths
// are rewritten for the machine and folder the workbook lives in.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const node = path.join(root, 'node_modules', 'node', 'bin', 'node')
const tslab = path.join(root, 'node_modules', 'tslab', 'bin', 'tslab')
// tslab binds its sockets in a race that can leave a kernel deaf at start: this preload binds iopub first.
const iopubFirst = path.join(root, 'scripts', 'tslab-iopub-first.cjs')
const venv = process.argv[2] ?? path.join(root, '.venv')
for (const f of [node, tslab, iopubFirst]) {
  if (!fs.existsSync(f)) throw new Error(`missing ${f}: run npm ci first`)
}
const kernels = path.join(venv, 'share', 'jupyter', 'kernels')
const spec = {
  argv: [node, '--require', iopubFirst, tslab, 'kernel', '--config-path', '{connection_file}'],
  display_name: 'TypeScript (workbook, Node 26)',
  language: 'typescript',
  env: {
    // Apps and tools started from a notebook find the pinned Node first. "${PATH}" is not this
    // script's PATH frozen in: jupyter_client (8.x, requirements.txt) fills it in with the PATH of the
    // server that starts the kernel, so later changes to PATH still reach the kernel.
    PATH: `${path.dirname(node)}${path.delimiter}\${PATH}`,
  },
}
const dir = path.join(kernels, 'tslab')
fs.mkdirSync(dir, { recursive: true })
fs.writeFileSync(path.join(dir, 'kernel.json'), `${JSON.stringify(spec, null, 2)}\n`)
console.log(`tslab kernel -> ${dir} (node ${node})`)
