import net from "node:net";

/**
 * A TCP relay on loopback that delays every packet by `delayMs` in both directions, in order (issue 39): put in front
 * of a destination that speaks TCP (the tests' PostgreSQL), it makes a slow link on purpose, so that a sync lasts and a
 * cancel or a delete lands mid-batch whatever the machine's speed. Connect to 127.0.0.1:`port`.
 */
export interface SlowRelay {
  port: number;
  close(): Promise<void>;
}

/** Forwards `from`'s data to `to`, each chunk `delayMs` after it came, never overtaking an earlier one. */
function delayed(from: net.Socket, to: net.Socket, delayMs: number): void {
  let due = 0;
  from.on("data", (chunk) => {
    due = Math.max(Date.now() + delayMs, due);
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk);
    }, due - Date.now());
  });
  from.on("end", () => setTimeout(() => to.end(), Math.max(0, due - Date.now())));
}

export async function startSlowRelay(target: { host: string; port: number }, delayMs: number): Promise<SlowRelay> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => {
        client.destroy();
        upstream.destroy();
      });
    }
    delayed(client, upstream, delayMs);
    delayed(upstream, client, delayMs);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
