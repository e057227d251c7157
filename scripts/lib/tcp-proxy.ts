import net from 'node:net';

/**
 * A TCP proxy between the service and a real server, for fault tests: `cut()` stops accepting
 * and destroys every open connection at once, as a server that dies or a network that drops
 * everything would; `restore()` accepts again on the same port (if it does not already).
 */
export interface TcpProxy {
  readonly port: number;
  /** Connections open through the proxy now. */
  readonly open: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // A reset on one side is passed on by destroying the other; the error itself is expected.
    socket.on('error', () => undefined);
  };
  const server = net.createServer((client) => {
    track(client);
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  return {
    port,
    get open() {
      return sockets.size;
    },
    async cut() {
      const closed = stopListening();
      // A reset, not a polite close: what a killed server or a dropped route looks like.
      for (const socket of sockets) socket.resetAndDestroy();
      await closed;
    },
    async restore() {
      if (!server.listening) await listen(port);
    },
    async close() {
      const closed = stopListening();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
