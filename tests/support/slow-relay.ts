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

/**
 * Forwards `from`'s data to `to`, each chunk `delayMs` after it came, in the order it came. One timer at a time
 * serves a queue: a timer per chunk could fire two chunks due in the same millisecond out of order (Node orders
 * timers of different durations that expire together by no rule), and a PostgreSQL server then read a message's
 * bytes shuffled ("invalid byte sequence for encoding UTF8: 0x00").
 */
function delayed(from: net.Socket, to: net.Socket, delayMs: number): void {
  const queue: { chunk: Buffer; due: number }[] = [];
  let timer: NodeJS.Timeout | null = null;
  let ended = false;
  const drain = () => {
    timer = null;
    while (queue.length && queue[0]!.due <= Date.now()) {
      const { chunk } = queue.shift()!;
      if (!to.destroyed) to.write(chunk);
    }
    if (queue.length) timer = setTimeout(drain, Math.max(0, queue[0]!.due - Date.now()));
    else if (ended && !to.destroyed) to.end();
  };
  from.on("data", (chunk: Buffer) => {
    queue.push({ chunk, due: Date.now() + delayMs });
    timer ??= setTimeout(drain, delayMs);
  });
  from.on("end", () => {
    ended = true;
    if (!timer) drain();
  });
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
