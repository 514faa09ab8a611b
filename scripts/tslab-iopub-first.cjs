'use strict'
// Preloaded into the tslab kernel (scripts/install-kernel.mjs: `node --require this tslab kernel ...`).
// tslab 1.0.22 binds its five ZeroMQ sockets at once. A client connects as soon as it can and asks
// for kernel_info on the shell socket; tslab answers it and publishes "busy" on iopub, and when the
// shell socket was bound before iopub, that send throws "Socket is blocked by a bind or unbind
// operation" (EBUSY), an unhandled rejection: the kernel never answers, and the notebook fails after
// jupyter_client's 60 s start timeout. Seen in a `make test` run of this workbook, on a busy 2-core
// machine. tslab is no longer maintained (last commit 2024-06), so the workbook binds iopub first.
const path = require('node:path')

const jupyter = require(path.join(__dirname, '..', 'node_modules', 'tslab', 'dist', 'jupyter.js'))
const bind = jupyter.ZmqServer.prototype.bindSocket
jupyter.ZmqServer.prototype.bindSocket = function bindSocketIopubFirst(sock, port) {
  if (sock === this.iopub) {
    this.iopubBound = bind.call(this, sock, port)
    return this.iopubBound
  }
  // Every other socket waits for iopub: a request on shell or control is answered on iopub too.
  return Promise.resolve(this.iopubBound).then(() => bind.call(this, sock, port))
}
