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
