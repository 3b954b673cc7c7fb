// Development-only static server: serves web/app.html for the page routes and web/ under
// /static, plus hand-written views from dev/views/<id>.json for GET /api/games/<id>, so the
// UI can be looked at without the Rust server. Not used by the tests.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const web = path.resolve(here, '../../web');
const types = { '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.html': 'text/html; charset=utf-8', '.png': 'image/png' };
const port = Number(process.argv[2] || 8099);

http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const p = url.pathname;
  const m = p.match(/^\/api\/games\/([\w-]+)$/);
  if (m) {
    const f = path.join(here, 'views', m[1] + '.json');
    if (!fs.existsSync(f)) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"No such game."}}');
    return res.writeHead(200, { 'content-type': 'application/json' }).end(fs.readFileSync(f));
  }
  if (p.startsWith('/static/')) {
    const f = path.join(web, p.slice(8));
    if (!f.startsWith(web) || !fs.existsSync(f)) return res.writeHead(404).end();
    return res.writeHead(200, { 'content-type': types[path.extname(f)] || 'application/octet-stream' }).end(fs.readFileSync(f));
  }
  if (p === '/' || p.startsWith('/g/') || p.startsWith('/rules')) {
    const lang = (req.headers.cookie || '').match(/lang=([\w-]+)/)?.[1] || 'en';
    const html = fs.readFileSync(path.join(web, 'app.html'), 'utf8').replaceAll('{{lang}}', lang).replaceAll('{{version}}', '0.1.0').replaceAll('{{commit}}', 'dev0000');
    return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  }
  res.writeHead(404).end();
}).listen(port, '127.0.0.1', () => console.log(`dev server on http://127.0.0.1:${port}`));
