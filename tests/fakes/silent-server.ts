import net from "node:net";

/**
 * A host that cannot be reached in time, on loopback: a TCP server on 127.0.0.1 that accepts every connection and
 * never answers a byte (what a black-holed or overloaded host looks like to a client). `connections` counts what
 * reached it; stop() destroys every socket still open.
 */
export class SilentServer {
  private readonly server = net.createServer((socket) => {
    this.connections++;
    this.sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => this.sockets.delete(socket));
  });
  private readonly sockets = new Set<net.Socket>();
  connections = 0;
  url = "";

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  /** Sockets still open: a client that gave up and closed its connection is no longer here. */
  get open(): number {
    return this.sockets.size;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
