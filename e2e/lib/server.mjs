// Builds and runs the real Jiang server for the browser tests: a random port on 127.0.0.1 and
// a temporary SQLite database; stop and start again on the same port and database to test
// recovery after a restart.
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Build the `jiang` binary (debug unless JIANG_PROFILE=release) and return its path. */
export function buildServer() {
  if (process.env.JIANG_BIN) return process.env.JIANG_BIN;
  const release = process.env.JIANG_PROFILE === 'release';
  execFileSync('cargo', ['build', '-p', 'jiang', ...(release ? ['--release'] : [])], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  const target = process.env.CARGO_TARGET_DIR || path.join(repo, 'target');
  return path.join(target, release ? 'release' : 'debug', 'jiang');
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A running server: `url`, `stop()`, `restart()`; `args` are more `jiang serve` flags. */
export async function startServer(args = []) {
  const bin = buildServer();
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jiang-e2e-'));
  const db = `sqlite://${path.join(dir, 'jiang.db')}`;
  const url = `http://127.0.0.1:${port}`;
  let child = null;
  const log = fs.openSync(path.join(dir, 'server.log'), 'a');

  async function start() {
    child = spawn(bin, ['serve', '--listen', `127.0.0.1:${port}`, '--database', db, '--public-url', url, ...args], {
      cwd: repo,
      stdio: ['ignore', log, log],
      env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
    });
    const deadline = Date.now() + 30000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}); log: ${path.join(dir, 'server.log')}`);
      try {
        const res = await fetch(`${url}/healthz`);
        if (res.ok) return;
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline) throw new Error('server did not become healthy in 30 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Stop the server: SIGKILL (a crash) or SIGTERM (graceful), and wait for it to exit. */
  async function stop(signal = 'SIGTERM') {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
    await exited;
    clearTimeout(timer);
  }

  await start();
  return {
    url,
    port,
    dir,
    stop,
    /** Start the stopped server again (same port and database). */
    start,
    async restart(signal = 'SIGKILL') {
      await stop(signal);
      await start();
    },
    async close() {
      await stop();
      fs.closeSync(log);
      if (!process.env.JIANG_E2E_KEEP) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
