import { extname, join, normalize, sep } from 'node:path';

/**
 * The Content-Security-Policy of the app window. Electron's custom protocol
 * and the loopback server send it as a header; renderer/index.html carries the
 * same policy as a meta tag (keep them in step). Scripts only from the app
 * itself, no eval, no plugins, no remote connections, no forms, no framing.
 * Inline styles are allowed because React style props and three.js's canvas
 * sizing set them; no inline script is.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The type each of the renderer's files is served as, by both transports (anything else: application/octet-stream). */
const RENDERER_CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
};

export function rendererContentType(path: string): string {
  return RENDERER_CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The renderer's file a request's URL path names (`/` is index.html), for both transports (main.ts's `actguy://`
 * handler, the loopback server): `malformed` for an escape that does not decode (`%E0%A4%A`) or a NUL, `outside` for
 * a path that leaves the renderer's folder (`..`, `%2e%2e%2f`).
 */
export function rendererFileOf(rendererDir: string, pathname: string): string | 'malformed' | 'outside' {
  let rel: string;
  try {
    rel = pathname === '/' ? 'index.html' : decodeURIComponent(pathname.slice(1));
  } catch {
    return 'malformed';
  }
  if (rel.includes('\0')) return 'malformed';
  const full = normalize(join(rendererDir, rel));
  return full.startsWith(rendererDir + sep) ? full : 'outside';
}

/**
 * The renderer's files the page's HTML loads as scripts (`<script src>`: Vite's bundle), resolved against the page's
 * URL as Chromium resolves them; a script of another origin or scheme is none of the renderer's. main.ts tells them
 * from a request the page makes for nothing: one of them that cannot be read is the page not served (a half-removed
 * installation: the page would load with no app in it).
 */
export function pageScriptFiles(html: string, pageUrl: string, rendererDir: string): Set<string> {
  const page = new URL(pageUrl);
  const files = new Set<string>();
  for (const [, src] of html.matchAll(/<script\b[^>]*\ssrc\s*=\s*"([^"]+)"/gi)) {
    let url: URL;
    try {
      url = new URL(src, page);
    } catch {
      continue;
    }
    if (url.protocol !== page.protocol || url.host !== page.host) continue;
    const full = rendererFileOf(rendererDir, url.pathname);
    if (full !== 'malformed' && full !== 'outside') files.add(full);
  }
  return files;
}

/**
 * Whether an IPC call comes from the app's own top frame: sent by the window's contents (`contents`, null once the
 * window is gone), from its main frame (not a sub-frame, which a library or a hostile page could make), showing a page
 * of the app's origin (`actguy://app`, so not `actguy://app.other/`). Anything else is refused before any handler.
 */
export function appTopFrame(
  event: { sender: unknown; senderFrame: { url: string } | null },
  contents: { mainFrame: unknown } | null,
  origin: string,
): boolean {
  const frame = event.senderFrame;
  return (
    !!contents &&
    event.sender === contents &&
    !!frame &&
    frame === contents.mainFrame &&
    frame.url.startsWith(`${origin}/`)
  );
}
