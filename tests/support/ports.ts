import net from "node:net";

/** A port on 127.0.0.1 that was free a moment ago (the OS picks it): for a server a test starts, or as a closed port. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
