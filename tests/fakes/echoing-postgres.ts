import net from "node:net";

/**
 * A PostgreSQL server that asks for the password in clear and refuses it quoting it back, as a careless or hostile
 * server could: in clear, URL-encoded, base64 and JSON-escaped. Only the wire protocol's start: enough for a
 * client's sign-in to fail with that text.
 */
export async function startEchoingPostgres(): Promise<{ port: number; passwords: string[]; close(): Promise<void> }> {
  const passwords: string[] = [];
  const message = (type: string, body: Buffer) => {
    const head = Buffer.alloc(5);
    head.write(type, 0, "latin1");
    head.writeInt32BE(body.length + 4, 1);
    return Buffer.concat([head, body]);
  };
  const cstr = (text: string) => Buffer.from(`${text}\0`, "utf8");
  const server = net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    let started = false;
    socket.on("error", () => {});
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          buffer = buffer.subarray(length);
          // SSLRequest / GSSENCRequest: not spoken here.
          if (code === 80877103 || code === 80877104) {
            socket.write("N");
            continue;
          }
          started = true;
          const auth = Buffer.alloc(4);
          auth.writeInt32BE(3); // AuthenticationCleartextPassword
          socket.write(message("R", auth));
          continue;
        }
        if (buffer.length < 5) return;
        const length = buffer.readInt32BE(1);
        if (buffer.length < length + 1) return;
        const type = String.fromCharCode(buffer[0]!);
        const body = buffer.subarray(5, length + 1);
        buffer = buffer.subarray(length + 1);
        if (type !== "p") continue;
        const password = body.toString("utf8").replace(/\0$/, "");
        passwords.push(password);
        const text =
          `role refused: the password "${password}" (${encodeURIComponent(password)}, ${Buffer.from(password).toString("base64")}, ` +
          `${JSON.stringify({ password })}) is not the one on file`;
        socket.end(message("E", Buffer.concat([cstr("SFATAL"), cstr("VFATAL"), cstr("C28000"), cstr(`M${text}`), Buffer.from([0])])));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    passwords,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
